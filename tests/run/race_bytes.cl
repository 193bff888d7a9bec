// RUN: clvm run %s --global 128 --local 128 --threads 2 --check races --arg d=zeros:128 --arg s=zeros:256
// Dense stores of chars and shorts are kept a block at a time (a run of
// work-items, one or two bytes each); a later store of work-item 0 to
// byte 1 of the chars meets, byte by byte, work-item 1's store of it.
kernel void bytes(global uchar *d, global ushort *s)
{
    int i = get_global_id(0);
    d[i] = (uchar)i;
    s[i] = (ushort)i;
    if (i == 0)
        d[1] = 9;
}
