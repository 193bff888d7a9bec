/* Images and samplers, as the spec answers them for a device without
 * image support (CL_DEVICE_IMAGE_SUPPORT is false): no format is
 * supported, nothing is created, and since no image or sampler exists,
 * every handle passed as one is invalid. */
#include "tools/ocl/ocl.h"

static cl_mem no_image(cl_context ctx, cl_int *err)
{
    if (err)   /* "no devices in context support images" */
        *err = ocl_is(ctx, OCL_CONTEXT) ? CL_INVALID_OPERATION
                                        : CL_INVALID_CONTEXT;
    return NULL;
}

cl_mem CL_API_CALL clCreateImage(cl_context ctx, cl_mem_flags flags,
                                 const cl_image_format *fmt,
                                 const cl_image_desc *desc, void *host,
                                 cl_int *err)
{
    return no_image(ctx, err);
}

cl_mem CL_API_CALL clCreateImage2D(cl_context ctx, cl_mem_flags flags,
                                   const cl_image_format *fmt, size_t w,
                                   size_t h, size_t pitch, void *host,
                                   cl_int *err)
{
    return no_image(ctx, err);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context ctx, cl_mem_flags flags,
                                   const cl_image_format *fmt, size_t w,
                                   size_t h, size_t d, size_t rp, size_t sp,
                                   void *host, cl_int *err)
{
    return no_image(ctx, err);
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context ctx,
                                              cl_mem_flags flags,
                                              cl_mem_object_type type,
                                              cl_uint n,
                                              cl_image_format *fmts,
                                              cl_uint *count)
{
    if (!ocl_is(ctx, OCL_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (type < CL_MEM_OBJECT_IMAGE2D || type > CL_MEM_OBJECT_IMAGE1D_BUFFER ||
        (!n && fmts))
        return CL_INVALID_VALUE;
    if (count)
        *count = 0;
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetImageInfo(cl_mem img, cl_image_info what, size_t size,
                                  void *value, size_t *ret)
{
    return CL_INVALID_MEM_OBJECT;   /* a buffer is not an image either */
}

cl_sampler CL_API_CALL clCreateSampler(cl_context ctx, cl_bool norm,
                                       cl_addressing_mode am,
                                       cl_filter_mode fm, cl_int *err)
{
    if (err)
        *err = ocl_is(ctx, OCL_CONTEXT) ? CL_INVALID_OPERATION
                                        : CL_INVALID_CONTEXT;
    return NULL;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler s) { return CL_INVALID_SAMPLER; }
cl_int CL_API_CALL clReleaseSampler(cl_sampler s) { return CL_INVALID_SAMPLER; }

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info what,
                                    size_t size, void *value, size_t *ret)
{
    return CL_INVALID_SAMPLER;
}

/* The image commands: the queue is checked first, then the image, which
 * cannot be one. */
static cl_int no_image_cmd(cl_command_queue q)
{
    return ocl_is(q, OCL_QUEUE) ? CL_INVALID_MEM_OBJECT
                                : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem img,
                                      cl_bool blocking, const size_t *origin,
                                      const size_t *region, size_t rp,
                                      size_t sp, void *ptr, cl_uint n,
                                      const cl_event *wait, cl_event *ev)
{
    return no_image_cmd(q);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem img,
                                       cl_bool blocking, const size_t *origin,
                                       const size_t *region, size_t rp,
                                       size_t sp, const void *ptr, cl_uint n,
                                       const cl_event *wait, cl_event *ev)
{
    return no_image_cmd(q);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem img,
                                      const void *color, const size_t *origin,
                                      const size_t *region, cl_uint n,
                                      const cl_event *wait, cl_event *ev)
{
    return no_image_cmd(q);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d,
                                      const size_t *so, const size_t *dor,
                                      const size_t *region, cl_uint n,
                                      const cl_event *wait, cl_event *ev)
{
    return no_image_cmd(q);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s,
                                              cl_mem d, const size_t *so,
                                              const size_t *region,
                                              size_t doff, cl_uint n,
                                              const cl_event *wait,
                                              cl_event *ev)
{
    return no_image_cmd(q);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s,
                                              cl_mem d, size_t soff,
                                              const size_t *dor,
                                              const size_t *region, cl_uint n,
                                              const cl_event *wait,
                                              cl_event *ev)
{
    return no_image_cmd(q);
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem img,
                                    cl_bool blocking, cl_map_flags flags,
                                    const size_t *origin,
                                    const size_t *region, size_t *rp,
                                    size_t *sp, cl_uint n,
                                    const cl_event *wait, cl_event *ev,
                                    cl_int *err)
{
    if (err)
        *err = no_image_cmd(q);
    return NULL;
}
