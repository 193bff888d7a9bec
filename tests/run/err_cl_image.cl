// RUN: clvm run %s --global 1 --arg o=zeros:16
// Images are outside clvm's OpenCL C (its device reports no image
// support): a kernel that takes one is refused, naming images and the
// line, not as a value of some type id.
kernel void k(read_only image2d_t im, global float4 *o)
{
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
    o[0] = read_imagef(im, s, (int2)(0, 0));
}
