// RUN: clvm run %s --global 2 --threads 2 --arg p=zeros:16
// Every printf conversion of OpenCL C through SPIR-V: flags, widths,
// precisions, lengths, vectors (%v4hlf ...), %a, %s of string literals
// (formatted into the stored format, as the IR does), %p (the byte offset
// in its buffer: clvm never shows host addresses). Each work-item's lines
// stay together, in work-item order. PoCL 5 prints the same (checked by
// tests/spirv/sync_pocl.py) but for the p: line (it shows addresses),
// the d: line (its device computes doubles as floats) and the w: line
// (it leaves out the text of %5.1s, which C defines as "    x").
kernel void k(global int *p)
{
    int i = get_global_id(0);
    uint u = 0xdeadbeef;
    long l = -9000000000L;
    float f = 1.0f / 3.0f;
    double d = -1.0 / 7.0;
    float4 v = (float4)(1.5f, -2.25f, 0.0f, 1e10f);
    int2 vi = (int2)(-7, 42);
    uchar8 vc = (uchar8)(1, 2, 3, 250, 5, 6, 7, 255);
    short3 vs = (short3)(-1, 0, 32767);
    long2 vl = (long2)(l, 3);
    double2 vd = (double2)(d, 2.0);
    printf("[%d] %i|%5d|%-5d|%+d|% d|%05d|%.3d|%ld|%lu\n", i, i, i, i, i, i, i, i, l, l);
    printf("o: %o %#o %x %#x %X %#X %8.4x %u %hu %hhu %hd %hhd\n", u, u, u, u, u, u, 255, u, (ushort)u, (uchar)u, (short)u, (char)u);
    printf("c: %c%c%c|%-3c|%3c|\n", 'o', 'k', 10 + 23, 'L', 'R');
    printf("f: %f %F %.2f %10.3f %-10.1f| %+f %#.0f %e %E %.3e\n", f, f, f, f, f, f, f, f, f, f);
    printf("g: %g %G %#g %g %g %a %A %.2a\n", f, 1e-10f, 2.0f, 1e20f, 100000.0f, f, -f, f);
    printf("d: %.10g %f %a %A %v2lf\n", d, d, d, d, vd);
    printf("s: %s|%10s|%-10s|%.2s|%%|\n", "str", "right", "left", "cut");
    printf("w: %5.1s|%-4.2s|\n", "xyz", "xyz");
    printf("v: %v4hlf|%.1v4hlf|%v2hld|%v8hhx|%v3hd|%v2ld|%v4hle\n", v, v, vi, vc, vs, vl, v);
    printf("p: %p %p\n", p, p + 1 + i);
}
