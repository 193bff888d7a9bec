// RUN: clvm run %s --global 4 --arg out=zeros:64 --arg raw=zeros:32 --print out --print raw:uint:hex
// Private arrays and pointers into them (checked against PoCL 3.1): an
// initialised array (`int a[8] = {...}`, stored from its constant), one of
// 40 elements copied whole (a loop), arrays of arrays read and written
// with run-time indices and through pointers into them (`row`, `&m[1][j]`),
// pointer arithmetic on a cast pointer (`(global uchar *)raw + 4 * i`), and
// choices between pointers (`c ? p : q`, and one in a loop: OpPhi).
kernel void k(global float *out, global uint *raw)
{
    int i = get_global_id(0);
    int a[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    int big[40] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    int copy[40];
    __builtin_memcpy(copy, big, sizeof copy);
    float m[3][4];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            m[r][c] = r * 10 + c + a[(r + c + i) & 7];
    float *row = m[i % 3];
    float *cell = &m[1][i];
    int cube[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
    int (*plane)[2] = cube[i & 1];
    global uchar *b = (global uchar *)raw + 4 * i;
    *(global uint *)b = 0xa0b0c000u + i;
    ((global ushort *)raw)[8 + i] = (ushort)(0x1111 * (i + 1));
    float *pick = (i & 1) ? row : cell;
    float acc = 0;
    float *walk = &m[0][0];
    for (int s = 0; s < 4; s++) {
        acc += *walk;
        walk = (s & 1) ? walk + 3 : walk + 2;
    }
    out[4 * i] = row[3] + cell[0];
    out[4 * i + 1] = plane[1][i & 1] + copy[39] + copy[15] + copy[i];
    out[4 * i + 2] = pick[1];
    out[4 * i + 3] = acc;
}
