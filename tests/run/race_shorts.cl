// RUN: clvm run %s --global 128 --local 128 --threads 2 --check races --arg s=zeros:256
// Dense stores of shorts, then work-item 5 reads the high byte of
// work-item 6's short (byte 13) in the same interval: a race, found in the
// block's record of two bytes per work-item.
kernel void shorts(global ushort *s)
{
    int i = get_global_id(0);
    s[i] = (ushort)i;
    if (i == 5)
        s[0] = ((global uchar *)s)[13];
}
