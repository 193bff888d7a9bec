// RUN: clvm run %s --global 1 --arg out=zeros:20 --arg name=zeros:16 --print out --print name
// The preprocessor's view of the device (the CTS's kernel_numeric_constants
// and kernel_preprocessor_macros): clvm's device has no images, so
// __IMAGE_SUPPORT__ is not defined (out[0] is 0xf00baa = 15731626, as the
// CTS writes it), __ENDIAN_LITTLE__ is 1, __OPENCL_C_VERSION__ and
// __OPENCL_VERSION__ 120 (clang defines only the first). The extension
// macros are the device's: out[4] is 1 (cl_khr_fp64) + 8 (cl_khr_fp16) +
// 16 (cl_khr_int64_base_atomics), without the 2 of cl_khr_3d_image_writes
// and the 4 of cl_intel_subgroups that clang alone defines for spir. A
// private pointer to a string literal (the CTS's `constant char *f = ""
// __FILE__`) reads its bytes: name is "t.cl" and its NUL, set by #line.
// An extension macro is defined to 1 or not at all: HAS(ext) sees its
// expansion's text, "1" or the name itself.
#define TEXT(x) #x
#define HAS(ext) (TEXT(ext)[0] == '1')

kernel void k(global int *out, global char *name)
{
#ifdef __IMAGE_SUPPORT__
    out[0] = __IMAGE_SUPPORT__;
#else
    out[0] = 0xf00baa;
#endif
    out[1] = __ENDIAN_LITTLE__;
    out[2] = __OPENCL_C_VERSION__;
#ifdef __OPENCL_VERSION__
    out[3] = __OPENCL_VERSION__;
#endif
    out[4] = HAS(cl_khr_fp64) + 2 * HAS(cl_khr_3d_image_writes) +
             4 * HAS(cl_intel_subgroups) + 8 * HAS(cl_khr_fp16) +
             16 * HAS(cl_khr_int64_base_atomics);
    int i;
#line 100 "t.cl"
    constant char *f = "" __FILE__;
    for (i = 0; f[i] != 0 && i < 15; i++)
        name[i] = f[i];
    name[i] = 0;
}
