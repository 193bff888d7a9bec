/* The one platform clvm offers and its one device, a CPU (the interpreter
 * on the host's cores): every query of OpenCL 1.2 answered truthfully. */
#include "tools/ocl/ocl.h"

#include <string.h>
#include <unistd.h>

#include "tools/cc.h"
#include "vm/bcfile.h"
#include "vm/vm.h"

struct _cl_platform_id ocl_platform = {{NULL, OCL_PLATFORM, {1}}};
struct _cl_device_id ocl_device = {{NULL, OCL_DEVICE, {1}}};

#define OCL_VERSION "0.3"
/* The ICD extension and the OpenCL C ones (tools/cc.h); the IL extension
 * comes with the work that implements it. */
#define OCL_EXT(e) " " #e
#define OCL_EXTENSIONS "cl_khr_icd" CC_EXTENSIONS(OCL_EXT)


cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *ps,
                                       cl_uint *count)
{
    if ((!ps && !count) || (ps && !n))
        return CL_INVALID_VALUE;
    if (ps)
        ps[0] = &ocl_platform;
    if (count)
        *count = 1;
    return CL_SUCCESS;
}

OCL_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p,
                                        cl_platform_info what, size_t size,
                                        void *value, size_t *ret)
{
    if (p && p != &ocl_platform)
        return CL_INVALID_PLATFORM;
    switch (what) {
    case CL_PLATFORM_PROFILE: return ocl_info_str(size, value, ret, "FULL_PROFILE");
    case CL_PLATFORM_VERSION:
        return ocl_info_str(size, value, ret, "OpenCL 1.2 clvm " OCL_VERSION);
    case CL_PLATFORM_NAME: return ocl_info_str(size, value, ret, "clvm");
    case CL_PLATFORM_VENDOR: return ocl_info_str(size, value, ret, "clvm");
    case CL_PLATFORM_EXTENSIONS:
        return ocl_info_str(size, value, ret, OCL_EXTENSIONS);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return ocl_info_str(size, value, ret, "clvm");
    default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p, cl_device_type type,
                                     cl_uint n, cl_device_id *ds,
                                     cl_uint *count)
{
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                 CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR |
                                 CL_DEVICE_TYPE_CUSTOM;
    if (p && p != &ocl_platform)
        return CL_INVALID_PLATFORM;
    if (type != CL_DEVICE_TYPE_ALL && (!type || (type & ~known)))
        return CL_INVALID_DEVICE_TYPE;
    if ((!ds && !count) || (ds && !n))
        return CL_INVALID_VALUE;
    if (!(type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)))
        return CL_DEVICE_NOT_FOUND;
    if (ds)
        ds[0] = &ocl_device;
    if (count)
        *count = 1;
    return CL_SUCCESS;
}

static cl_uint cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (cl_uint)n : 1;
}

static cl_ulong memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), sz = sysconf(_SC_PAGESIZE);
    cl_ulong m = pages > 0 && sz > 0 ? (cl_ulong)pages * (cl_ulong)sz
                                     : (cl_ulong)1 << 30;
    return m / 2;   /* leave the host half */
}

/* Scalars of several types, answered by one switch. */
#define U(v) do { cl_uint x_ = (v); return ocl_info(size, value, ret, &x_, sizeof x_); } while (0)
#define UL(v) do { cl_ulong x_ = (v); return ocl_info(size, value, ret, &x_, sizeof x_); } while (0)
#define SZ(v) do { size_t x_ = (v); return ocl_info(size, value, ret, &x_, sizeof x_); } while (0)
#define B(v) do { cl_bool x_ = (v); return ocl_info(size, value, ret, &x_, sizeof x_); } while (0)
#define STR(s) return ocl_info_str(size, value, ret, (s))

static cl_int device_numbers(cl_device_info what, size_t size, void *value,
                             size_t *ret)
{
    switch (what) {
    case CL_DEVICE_VENDOR_ID: U(0x6d766c63u);   /* "clvm" */
    case CL_DEVICE_MAX_COMPUTE_UNITS: U(cores());
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: U(3);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: SZ(VM_MAX_GROUP);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t s[3] = {VM_MAX_GROUP, VM_MAX_GROUP, VM_MAX_GROUP};
        return ocl_info(size, value, ret, s, sizeof s);
    }
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: U(16);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: U(8);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: U(4);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: U(2);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: U(8);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: U(1000);
    case CL_DEVICE_ADDRESS_BITS: U(64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: UL(memory() / 4);
    case CL_DEVICE_GLOBAL_MEM_SIZE: UL(memory());
    case CL_DEVICE_MAX_PARAMETER_SIZE: SZ(1024);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: U(OCL_BASE_ALIGN * 8);   /* bits */
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: U(128);
    case CL_DEVICE_SINGLE_FP_CONFIG:
        UL(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA |
           CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        UL(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
           CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA);
    case CL_DEVICE_HALF_FP_CONFIG: /* every operation rounded once (stdlib/half.c) */
        UL(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: U(CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: U(64);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: UL(1 << 20);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: UL(1 << 20);
    case CL_DEVICE_MAX_CONSTANT_ARGS: U(8);
    case CL_DEVICE_LOCAL_MEM_TYPE: U(CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: UL(OCL_LOCAL_MEM);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: B(CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: B(CL_TRUE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: SZ(1);
    case CL_DEVICE_ENDIAN_LITTLE: B(CL_TRUE);
    case CL_DEVICE_AVAILABLE: B(CL_TRUE);
    case CL_DEVICE_COMPILER_AVAILABLE: B(CL_TRUE);
    case CL_DEVICE_LINKER_AVAILABLE: B(CL_TRUE);
    case CL_DEVICE_EXECUTION_CAPABILITIES: UL(CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_PROPERTIES:
        UL(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: SZ(1 << 20);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: B(CL_TRUE);
    case CL_DEVICE_REFERENCE_COUNT: U(1);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: U(0);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: UL(0);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE: {
        cl_device_partition_property none = 0;
        return ocl_info(size, value, ret, &none, sizeof none);
    }
    /* no images (CL_DEVICE_IMAGE_SUPPORT is false): every limit 0 */
    case CL_DEVICE_IMAGE_SUPPORT: B(CL_FALSE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS: U(0);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: SZ(0);
    default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info what,
                                      size_t size, void *value, size_t *ret)
{
    if (!ocl_is(d, OCL_DEVICE))
        return CL_INVALID_DEVICE;
    switch (what) {
    case CL_DEVICE_TYPE: UL(CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_NAME: STR("clvm");
    case CL_DEVICE_VENDOR: STR("clvm");
    case CL_DRIVER_VERSION: STR(OCL_VERSION);
    case CL_DEVICE_PROFILE: STR("FULL_PROFILE");
    case CL_DEVICE_VERSION: STR("OpenCL 1.2 clvm " OCL_VERSION);
    case CL_DEVICE_OPENCL_C_VERSION: STR("OpenCL C 1.2 ");
    case CL_DEVICE_EXTENSIONS: STR(OCL_EXTENSIONS);
    case CL_DEVICE_BUILT_IN_KERNELS: STR("");
    case CL_DEVICE_PLATFORM: {
        cl_platform_id p = &ocl_platform;
        return ocl_info(size, value, ret, &p, sizeof p);
    }
    case CL_DEVICE_PARENT_DEVICE: {
        cl_device_id none = NULL;
        return ocl_info(size, value, ret, &none, sizeof none);
    }
    default:
        return device_numbers(what, size, value, ret);
    }
}

cl_int CL_API_CALL clRetainDevice(cl_device_id d)
{
    return ocl_is(d, OCL_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id d)
{
    return ocl_is(d, OCL_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id d,
                                         const cl_device_partition_property *p,
                                         cl_uint n, cl_device_id *out,
                                         cl_uint *count)
{
    if (!ocl_is(d, OCL_DEVICE))
        return CL_INVALID_DEVICE;
    /* CL_DEVICE_PARTITION_PROPERTIES lists none */
    (void)p, (void)n, (void)out, (void)count;
    return CL_INVALID_VALUE;
}
