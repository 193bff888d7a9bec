// RUN: clvm run %s --global 4 --arg out=zeros:16 --print out
// An index past a struct's array member is out of that array's bounds,
// as the access chain says (s.b[i] indexes b), though inside the struct:
// clvm traps naming the member (clang's name for &s.b), as Oclgrind
// reports "exceeds static array size"; so does an inner index of an
// array of arrays (m[0][i] past 3). A pointer one past the member's end
// may be formed. Work-item 2 traps on s.b[2].
typedef struct { int a; char b[2]; int m[2][3]; } S;
kernel void k(global int *out)
{
    S s = {-1, {42, 7}, {{1, 2, 3}, {4, 5, 6}}};
    int i = get_global_id(0);
    char *one_past = &s.b[2];   /* forming it is fine */
    out[i] = s.m[1][i % 3] + ((ulong)one_past - (ulong)s.b);
    out[i] += s.b[i];
}
