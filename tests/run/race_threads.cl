// RUN: clvm run %s --global 65536 --local 64 --threads 1 --check races --arg a=zeros:262144
// Every work-group writes what the next one reads: a race between
// work-groups at each of 1024 edges. On one thread the groups run in
// order and group 1's first read is reported; on several, which edge
// and which side is found first depends on the threads' timing, but a
// race is always found (tests/race/threads.sh).
kernel void shift(global uint *a)
{
    uint i = get_global_id(0), n = get_global_size(0);
    a[(i + 64) % n] = a[i] + 1;
}
