# A pyopencl script on clvm's OpenCL platform, with the kernel in clvm IR:
#   build/clvm exec /usr/bin/python3 examples/host/scale.py
import numpy as np
import pyopencl as cl

SRC = """
kernel scale(global float *x, float k)
    uint i = get_global_id(0)
    x[i] = x[i] * k
end
"""

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, SRC).build()
x = np.arange(8, dtype=np.float32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                hostbuf=x)
prg.scale(queue, x.shape, None, buf, np.float32(0.1))
cl.enqueue_copy(queue, x, buf)
print("platform:", ctx.devices[0].platform.name)
print(" ".join(float(v).hex() for v in x))
