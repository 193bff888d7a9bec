/* The ICD loader's view of clvm: the dispatch table every object points
 * to, and the only symbols the library exports (clIcdGetPlatformIDsKHR
 * and clGetExtensionFunctionAddress[ForPlatform]). */
#include "tools/ocl/ocl.h"

#include <string.h>

/* The entry points clvm implements: one list, for the table. */
#define OCL_ENTRY_POINTS(X) \
    X(BuildProgram) \
    X(CompileProgram) \
    X(CreateBuffer) \
    X(CreateCommandQueue) \
    X(CreateContext) \
    X(CreateContextFromType) \
    X(CreateImage) \
    X(CreateImage2D) \
    X(CreateImage3D) \
    X(CreateKernel) \
    X(CreateKernelsInProgram) \
    X(CreateProgramWithBinary) \
    X(CreateProgramWithBuiltInKernels) \
    X(CreateProgramWithSource) \
    X(CreateSampler) \
    X(CreateSubBuffer) \
    X(CreateSubDevices) \
    X(CreateUserEvent) \
    X(EnqueueBarrier) \
    X(EnqueueBarrierWithWaitList) \
    X(EnqueueCopyBuffer) \
    X(EnqueueCopyBufferRect) \
    X(EnqueueCopyBufferToImage) \
    X(EnqueueCopyImage) \
    X(EnqueueCopyImageToBuffer) \
    X(EnqueueFillBuffer) \
    X(EnqueueFillImage) \
    X(EnqueueMapBuffer) \
    X(EnqueueMapImage) \
    X(EnqueueMarker) \
    X(EnqueueMarkerWithWaitList) \
    X(EnqueueMigrateMemObjects) \
    X(EnqueueNDRangeKernel) \
    X(EnqueueNativeKernel) \
    X(EnqueueReadBuffer) \
    X(EnqueueReadBufferRect) \
    X(EnqueueReadImage) \
    X(EnqueueTask) \
    X(EnqueueUnmapMemObject) \
    X(EnqueueWaitForEvents) \
    X(EnqueueWriteBuffer) \
    X(EnqueueWriteBufferRect) \
    X(EnqueueWriteImage) \
    X(Finish) \
    X(Flush) \
    X(GetCommandQueueInfo) \
    X(GetContextInfo) \
    X(GetDeviceIDs) \
    X(GetDeviceInfo) \
    X(GetEventInfo) \
    X(GetEventProfilingInfo) \
    X(GetImageInfo) \
    X(GetKernelArgInfo) \
    X(GetKernelInfo) \
    X(GetKernelWorkGroupInfo) \
    X(GetMemObjectInfo) \
    X(GetPlatformInfo) \
    X(GetProgramBuildInfo) \
    X(GetProgramInfo) \
    X(GetSamplerInfo) \
    X(GetSupportedImageFormats) \
    X(LinkProgram) \
    X(ReleaseCommandQueue) \
    X(ReleaseContext) \
    X(ReleaseDevice) \
    X(ReleaseEvent) \
    X(ReleaseKernel) \
    X(ReleaseMemObject) \
    X(ReleaseProgram) \
    X(ReleaseSampler) \
    X(RetainCommandQueue) \
    X(RetainContext) \
    X(RetainDevice) \
    X(RetainEvent) \
    X(RetainKernel) \
    X(RetainMemObject) \
    X(RetainProgram) \
    X(RetainSampler) \
    X(SetCommandQueueProperty) \
    X(SetEventCallback) \
    X(SetKernelArg) \
    X(SetMemObjectDestructorCallback) \
    X(SetUserEventStatus) \
    X(UnloadCompiler) \
    X(UnloadPlatformCompiler) \
    X(WaitForEvents) \
    X(GetPlatformIDs)

static const struct _cl_icd_dispatch dispatch = {
#define X(f) .cl##f = cl##f,
    OCL_ENTRY_POINTS(X)
#undef X
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clGetExtensionFunctionAddressForPlatform =
        clGetExtensionFunctionAddressForPlatform,
};

/* Before the loader asks anything: the objects' table. */
__attribute__((constructor)) static void set_table(void)
{
    ocl_table = &dispatch;
    ocl_platform.h.dispatch = ocl_device.h.dispatch = &dispatch;
}

OCL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n,
                                                 cl_platform_id *ps,
                                                 cl_uint *count)
{
    return clGetPlatformIDs(n, ps, count);
}

OCL_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    /* a function pointer as void *: what the API returns (POSIX allows) */
    if (name && !strcmp(name, "clIcdGetPlatformIDsKHR"))
        return (void *)clIcdGetPlatformIDsKHR;
    return NULL;
}

OCL_EXPORT void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name)
{
    return p == &ocl_platform ? clGetExtensionFunctionAddress(name) : NULL;
}
