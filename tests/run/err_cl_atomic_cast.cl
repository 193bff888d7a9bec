// RUN: clvm run %s --global 4 --arg p=zeros:16
// atomic_min through a pointer cast to the other signedness: SPIR-V's
// integers have no sign, and the IR spells the sign by the pointer's type,
// so clvm refuses it with the line rather than compare the wrong way.
kernel void k(global int *p)
{
    atomic_min((global uint *)p, 5u);
}
