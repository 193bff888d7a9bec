/* Measures PoCL on every implementation-defined conversion case, and
 * checks clvm's `pocl` profile against it.
 *
 *   pocl table     prints what PoCL gives, per vector width 1 2 3 4 8 16,
 *                  for each case and input, next to the pocl profile's
 *                  value (a '*' marks a width that differs from it)
 *   pocl arith     integer division cases, each in a child process (x86
 *                  division traps), and signed overflow
 *   pocl narrow    integer -> signed integer without _sat (NARROW), per
 *                  width and as the C cast, next to the profile's value
 *   pocl as        as_type between element counts (AS_COUNT, AS_W,
 *                  AS_3TO4), loaded and stored through vloadN/vstoreN
 *                  and, with a 3-vector, through T3 pointers too: whether
 *                  the operand's lanes land in memory order, and what a
 *                  3-vector's padding lane and w give
 *   pocl check     the test: the profile against live PoCL on the scalar
 *                  float conversions (the profile's scope), narrowing at
 *                  every width, and as_type's memory order; skipped,
 *                  counted, when there is no PoCL device of the kind the
 *                  profile was measured on (POCL_DEVICE below)
 *
 * Inputs are read from buffers at run time: a constant operand would let
 * LLVM fold the conversion with other rules than the code it generates.
 * docs/semantics.md has the rules derived from `pocl table`. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stdlib/profile.h"
#include "stdlib/reinterpret.h"

/* The device the pocl profile was measured on (clinfo's Device Name). */
#define POCL_DEVICE "pthread-skylake-avx512-AMD EPYC"

static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
enum { NW = 6, NIN = 48 }; /* inputs per buffer: a multiple of 3 and 16 */

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static char devname[256];

static void die(const char *what, cl_int err)
{
    fprintf(stderr, "pocl: %s failed (OpenCL error %d)\n", what, (int)err);
    exit(2);
}

/* Finds the PoCL device; 0 if there is none. */
static int open_pocl(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < np && i < 8; i++) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strstr(name, "Portable Computing Language"))
            continue;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) !=
            CL_SUCCESS)
            continue;
        clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof devname, devname, NULL);
        cl_int e;
        ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
        if (e != CL_SUCCESS)
            die("clCreateContext", e);
        queue = clCreateCommandQueue(ctx, dev, 0, &e);
        if (e != CL_SUCCESS)
            die("clCreateCommandQueue", e);
        return 1;
    }
    return 0;
}

static cl_program build(const char *src)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (e != CL_SUCCESS)
        die("clCreateProgramWithSource", e);
    if ((e = clBuildProgram(p, 1, &dev, "", NULL, NULL)) != CL_SUCCESS) {
        static char log[1 << 16];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log,
                              NULL);
        fprintf(stderr, "%s\n", log);
        die("clBuildProgram", e);
    }
    return p;
}

/* Runs kernel `name` of p over n work-items: arguments are the input
 * buffers (nin of them, each `isz` bytes) and one output of `osz`. */
static void run(cl_program p, const char *name, size_t n, unsigned nin,
                const void *const *in, size_t isz, void *out, size_t osz)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (e != CL_SUCCESS)
        die("clCreateKernel", e);
    cl_mem b[4];
    for (unsigned i = 0; i <= nin; i++) {
        size_t sz = i < nin ? isz : osz;
        b[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE |
                              (i < nin ? CL_MEM_COPY_HOST_PTR : 0), sz,
                              i < nin ? (void *)in[i] : NULL, &e);
        if (e != CL_SUCCESS)
            die("clCreateBuffer", e);
        clSetKernelArg(k, i, sizeof b[i], &b[i]);
    }
    if ((e = clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL,
                                    NULL)) != CL_SUCCESS)
        die("clEnqueueNDRangeKernel", e);
    if ((e = clEnqueueReadBuffer(queue, b[nin], CL_TRUE, 0, osz, out, 0,
                                 NULL, NULL)) != CL_SUCCESS)
        die("clEnqueueReadBuffer", e);
    for (unsigned i = 0; i <= nin; i++)
        clReleaseMemObject(b[i]);
    clReleaseKernel(k);
}

/* ------------------------------------------------------------------ */
/* Conversions                                                         */

static const enum ty_scalar dsts[] = {TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT,
                                      TY_INT, TY_UINT, TY_LONG, TY_ULONG};
static const enum ty_scalar srcs[] = {TY_FLOAT, TY_DOUBLE};
enum { NDST = 8, NSRC = 2, NMODE = 5 }; /* default, rte, rtz, rtp, rtn */

/* The inputs: NaNs, infinities, each destination's bounds and the values
 * next to them, values that go out of range only after rounding. */
static unsigned inputs(enum ty_scalar src, uint64_t *bits)
{
    static const double v[] = {
        INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, 1e20, -1e20, 0x1p64, 0x1p63,
        -0x1p63, 0x1p32, 0x1p31, -0x1p31, 70000, -70000, 40000, -40000,
        300.5, -300.5, 200, -200, 127.5, -128.5, 255.5, -1.5, -0.5, 1.5,
        65535.5, 32767.5, 4294967295.5, 2147483647.5};
    unsigned n = 0;
    const bool f = src == TY_FLOAT;
    bits[n++] = f ? 0x7fc00000u : 0x7ff8000000000000u;          /* NaN */
    bits[n++] = f ? 0xffc00000u : 0xfff8000000000000u;          /* -NaN */
    bits[n++] = f ? 0x7f800001u : 0x7ff0000000000001u;          /* sNaN */
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        if (f) {
            float x = (float)v[i];
            uint32_t u;
            memcpy(&u, &x, 4);
            bits[n++] = u;
        } else {
            memcpy(&bits[n++], &v[i], 8);
        }
    }
    /* just past each 32- and 64-bit bound (the values above are on it) */
    double edge[] = {0x1p63, -0x1p63, 0x1p31, -0x1p31, 0x1p64, 0x1p32};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        if (f) {
            float x = nextafterf((float)edge[i], edge[i] < 0 ? -INFINITY
                                                            : INFINITY);
            uint32_t u;
            memcpy(&u, &x, 4);
            bits[n++] = u;
        } else {
            double x = nextafter(edge[i], edge[i] < 0 ? -INFINITY : INFINITY);
            memcpy(&bits[n++], &x, 8);
        }
    }
    return n;
}

static const char *mode_sfx(int m)
{
    static const char *const s[NMODE] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
    return s[m];
}

static enum rnd mode_rnd(int m)
{
    return m == 0 ? RND_RTZ : (enum rnd)(m - 1);
}

/* One kernel per (dst, src, sat, mode, width), named k<index>. */
static char *cvt_source(unsigned nwidth)
{
    size_t cap = 1 << 20, at = 0;
    char *s = malloc(cap);
    at += (size_t)snprintf(s, cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : "
                           "enable\n");
    unsigned idx = 0;
    for (int di = 0; di < NDST; di++)
        for (int si = 0; si < NSRC; si++)
            for (int sat = 0; sat < 2; sat++)
                for (int m = 0; m < NMODE; m++)
                    for (unsigned wi = 0; wi < nwidth; wi++, idx++) {
                        const char *dn = ty_scalar_name(dsts[di]),
                                   *sn = ty_scalar_name(srcs[si]);
                        unsigned w = widths[wi];
                        char ws[12] = "";
                        if (w > 1)
                            snprintf(ws, sizeof ws, "%u", w);
                        if (w == 1)
                            at += (size_t)snprintf(s + at, cap - at,
                                "kernel void k%u(global const %s *in, "
                                "global %s *out) { size_t i = "
                                "get_global_id(0); out[i] = convert_%s%s%s("
                                "in[i]); }\n", idx, sn, dn, dn,
                                sat ? "_sat" : "", mode_sfx(m));
                        else
                            at += (size_t)snprintf(s + at, cap - at,
                                "kernel void k%u(global const %s *in, "
                                "global %s *out) { size_t i = "
                                "get_global_id(0); vstore%s(convert_%s%s%s%s("
                                "vload%s(i, in)), i, out); }\n", idx, sn, dn,
                                ws, dn, ws, sat ? "_sat" : "", mode_sfx(m),
                                ws);
                    }
    return s;
}

static uint64_t get(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, p, size); /* little-endian host, as PoCL's buffers */
    return v;
}

/* Runs every conversion case; table mode prints, check mode compares the
 * width-1 results with the profile. Returns the mismatches. */
static unsigned conversions(int table, unsigned *checked)
{
    unsigned nwidth = table ? NW : 1, bad = 0;
    char *src = cvt_source(nwidth);
    cl_program p = build(src);
    free(src);
    unsigned idx = 0;
    for (int di = 0; di < NDST; di++)
        for (int si = 0; si < NSRC; si++)
            for (int sat = 0; sat < 2; sat++)
                for (int m = 0; m < NMODE; m++) {
                    enum ty_scalar d = dsts[di], s = srcs[si];
                    unsigned ss = ty_scalar_size(s), ds = ty_scalar_size(d);
                    uint64_t bits[NIN] = {0};
                    unsigned n = inputs(s, bits);
                    uint8_t in[NIN * 8] = {0}, out[NW][NIN * 8];
                    for (unsigned i = 0; i < n; i++)
                        memcpy(in + i * ss, &bits[i], ss);
                    for (unsigned wi = 0; wi < nwidth; wi++, idx++) {
                        char name[16];
                        snprintf(name, sizeof name, "k%u", idx);
                        const void *ins[1] = {in};
                        run(p, name, NIN / widths[wi], 1, ins, NIN * ss,
                            out[wi], NIN * ds);
                    }
                    for (unsigned i = 0; i < n; i++) {
                        uint64_t want = 0, clvm = 0;
                        int nt = prof_cv_scalar(PROF_POCL, d, s, &want,
                                                &bits[i], sat, mode_rnd(m));
                        prof_cv_scalar(PROF_CLVM, d, s, &clvm, &bits[i], sat,
                                       mode_rnd(m));
                        if (nt == 0 && !table)
                            continue; /* defined: not the profile's business */
                        uint64_t got = get(out[0] + i * ds, ds);
                        if (!table) {
                            ++*checked;
                            if (got != want) {
                                bad++;
                                printf("FAIL convert_%s%s%s(%s 0x%llx): PoCL "
                                       "0x%llx, profile 0x%llx\n",
                                       ty_scalar_name(d), sat ? "_sat" : "",
                                       mode_sfx(m), ty_scalar_name(s),
                                       (unsigned long long)bits[i],
                                       (unsigned long long)got,
                                       (unsigned long long)want);
                            }
                            continue;
                        }
                        printf("convert_%s%s%s\t%s\t%0*llx\t%0*llx\t%0*llx\t",
                               ty_scalar_name(d), sat ? "_sat" : "",
                               mode_sfx(m), ty_scalar_name(s), 2 * ss,
                               (unsigned long long)bits[i], 2 * ds,
                               (unsigned long long)clvm, 2 * ds,
                               (unsigned long long)want);
                        for (unsigned wi = 0; wi < nwidth; wi++) {
                            uint64_t g = get(out[wi] + i * ds, ds);
                            printf(" %0*llx%s", 2 * ds, (unsigned long long)g,
                                   g != want ? "*" : "");
                        }
                        printf("\n");
                    }
                }
    clReleaseProgram(p);
    return bad;
}

/* ------------------------------------------------------------------ */
/* Integer division and overflow                                       */

static const enum ty_scalar itys[] = {TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT,
                                      TY_INT, TY_UINT, TY_LONG, TY_ULONG};

/* One case in this process: `op` ('/', '%', '+', '*', '-' for negation)
 * on (a, b) of type t at width w; prints PoCL's result. */
static int arith_one(const char *tn, char op, uint64_t a, uint64_t b,
                     unsigned w)
{
    ty_t t;
    if (!ty_parse(tn, strlen(tn), &t) || !open_pocl())
        return 2;
    unsigned sz = ty_scalar_size(t.s);
    char ws[12] = "", src[512], expr[64];
    if (w > 1)
        snprintf(ws, sizeof ws, "%u", w);
    if (op == '-')
        snprintf(expr, sizeof expr, "-x");
    else
        snprintf(expr, sizeof expr, "x %c y", op);
    snprintf(src, sizeof src,
             "kernel void k(global const %s *a, global const %s *b, global "
             "%s *out) { size_t i = get_global_id(0); %s%s x = vload%s(i, a), "
             "y = vload%s(i, b); vstore%s(%s, i, out); }\n",
             tn, tn, tn, tn, ws, w > 1 ? ws : "", w > 1 ? ws : "",
             w > 1 ? ws : "", expr);
    if (w == 1)
        snprintf(src, sizeof src,
                 "kernel void k(global const %s *a, global const %s *b, "
                 "global %s *out) { size_t i = get_global_id(0); %s x = a[i], "
                 "y = b[i]; out[i] = %s; }\n", tn, tn, tn, tn, expr);
    uint8_t ab[NIN * 8], bb[NIN * 8], ob[NIN * 8];
    for (unsigned i = 0; i < NIN; i++) {
        memcpy(ab + i * sz, &a, sz);
        memcpy(bb + i * sz, &b, sz);
    }
    cl_program p = build(src);
    const void *ins[2] = {ab, bb};
    run(p, "k", NIN / w, 2, ins, NIN * sz, ob, NIN * sz);
    printf("%0*llx", 2 * sz, (unsigned long long)get(ob, sz));
    for (unsigned i = 1; i < NIN; i++)
        if (get(ob + i * sz, sz) != get(ob, sz))
            printf("(lane %u: %0*llx)", i, 2 * sz,
                   (unsigned long long)get(ob + i * sz, sz));
    return 0;
}

/* Each case in a child, since x86 division by zero raises SIGFPE. */
static void arith_table(const char *self)
{
    for (int ti = 0; ti < 8; ti++) {
        enum ty_scalar t = itys[ti];
        unsigned sz = ty_scalar_size(t);
        uint64_t min = ty_is_signed(t) ? UINT64_C(1) << (8 * sz - 1) : 0,
                 max = ty_is_signed(t) ? min - 1 : ~UINT64_C(0) >> (64 - 8 * sz),
                 m1 = ~UINT64_C(0) >> (64 - 8 * sz);
        struct { char op; uint64_t a, b; const char *what; } cs[] = {
            {'/', 7, 0, "7 / 0"}, {'%', 7, 0, "7 % 0"},
            {'/', min, m1, "MIN / -1"}, {'%', min, m1, "MIN % -1"},
            {'+', max, 1, "MAX + 1"}, {'*', max, 2, "MAX * 2"},
            {'-', min, 0, "-MIN"}};
        for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
            if (!ty_is_signed(t) && c >= 2)
                break;
            printf("%s\t%s\t", ty_scalar_name(t), cs[c].what);
            for (int wi = 0; wi < NW; wi++) {
                fflush(stdout);
                pid_t pid = fork();
                if (pid == 0) {
                    char a[24], b[24], w[8], o[2] = {cs[c].op, 0};
                    snprintf(a, sizeof a, "%llu", (unsigned long long)cs[c].a);
                    snprintf(b, sizeof b, "%llu", (unsigned long long)cs[c].b);
                    snprintf(w, sizeof w, "%u", widths[wi]);
                    execl(self, self, "arith1", ty_scalar_name(t), o, a, b, w,
                          (char *)NULL);
                    _exit(127);
                }
                int st = 0;
                waitpid(pid, &st, 0);
                if (WIFSIGNALED(st))
                    printf("signal-%d", WTERMSIG(st));
                else if (WEXITSTATUS(st))
                    printf("exit-%d", WEXITSTATUS(st));
                printf(wi + 1 < NW ? " " : "\n");
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Integer -> signed integer narrowing without _sat                     */

/* The narrowing pairs (NOTE_NARROW): a signed destination narrower than
 * the source, or as wide with an unsigned source. */
static bool narrowing(enum ty_scalar d, enum ty_scalar s)
{
    unsigned ds = ty_scalar_size(d), ss = ty_scalar_size(s);
    return ty_is_signed(d) && (ds < ss || (ds == ss && !ty_is_signed(s)));
}

/* The inputs: each bound of the 8/16/32/64-bit types, the values next to
 * them and some in between, as 64-bit patterns truncated to the source. */
static void narrow_inputs(unsigned ss, uint64_t *bits)
{
    static const uint64_t v[] = {
        0x7f, 0x80, 0xff, 0x100, 0x12c, 0x17f, 0x7fff, 0x8000, 0xffff,
        0x10000, 0x11170, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000,
        0x123456789abcdef0, 0x7fffffffffffffff, 0x8000000000000000,
        0xffffffffffffffff, 0xfffffffffffffed4, 0xfffffffffffeee90,
        0xffffffff7fffffff, 0xffffffffffff7fff, 0xffffffffffffff7f};
    uint64_t m = ~UINT64_C(0) >> (64 - 8 * ss);
    for (unsigned i = 0; i < NIN; i++)
        bits[i] = v[i % (sizeof v / sizeof v[0])] & m;
}

/* convert_T (and, as scalars, the C cast (T)) per width: table mode
 * prints every input, check mode compares every lane of every width with
 * prof_cv_scalar(PROF_POCL). Returns the mismatches. */
static unsigned narrows(int table, unsigned *checked)
{
    size_t cap = 1 << 18, at = 0;
    char *src = malloc(cap);
    unsigned nk = 0, bad = 0;
    for (int di = 0; di < NDST; di++)
        for (int si = 0; si < NDST; si++) {
            if (!narrowing(dsts[di], dsts[si]))
                continue;
            const char *dn = ty_scalar_name(dsts[di]),
                       *sn = ty_scalar_name(dsts[si]);
            at += (size_t)snprintf(src + at, cap - at,
                "kernel void k%u(global const %s *in, global %s *out) { "
                "size_t i = get_global_id(0); out[i] = (%s)in[i]; }\n",
                nk++, sn, dn, dn);
            at += (size_t)snprintf(src + at, cap - at,
                "kernel void k%u(global const %s *in, global %s *out) { "
                "size_t i = get_global_id(0); out[i] = convert_%s(in[i]); "
                "}\n", nk++, sn, dn, dn);
            for (unsigned wi = 1; wi < NW; wi++)
                at += (size_t)snprintf(src + at, cap - at,
                    "kernel void k%u(global const %s *in, global %s *out) { "
                    "size_t i = get_global_id(0); vstore%u(convert_%s%u("
                    "vload%u(i, in)), i, out); }\n",
                    nk++, sn, dn, widths[wi], dn, widths[wi], widths[wi]);
        }
    cl_program p = build(src);
    free(src);
    nk = 0;
    for (int di = 0; di < NDST; di++)
        for (int si = 0; si < NDST; si++) {
            enum ty_scalar d = dsts[di], s = dsts[si];
            if (!narrowing(d, s))
                continue;
            unsigned ss = ty_scalar_size(s), ds = ty_scalar_size(d);
            uint64_t bits[NIN];
            uint8_t in[NIN * 8], out[NW + 1][NIN * 8];
            narrow_inputs(ss, bits);
            for (unsigned i = 0; i < NIN; i++)
                memcpy(in + i * ss, &bits[i], ss);
            for (unsigned k = 0; k <= NW; k++, nk++) {
                char name[16];
                snprintf(name, sizeof name, "k%u", nk);
                const void *ins[1] = {in};
                run(p, name, k ? NIN / widths[k - 1] : NIN, 1, ins, NIN * ss,
                    out[k], NIN * ds);
            }
            for (unsigned i = 0; i < NIN; i++) {
                uint64_t want = 0, clvm = 0;
                int nt = prof_cv_scalar(PROF_POCL, d, s, &want, &bits[i],
                                        false, RND_RTZ);
                prof_cv_scalar(PROF_CLVM, d, s, &clvm, &bits[i], false,
                               RND_RTZ);
                if (!(nt & NOTE_NARROW))
                    continue;
                bool seen = false;
                for (unsigned j = 0; j < i; j++)
                    seen |= bits[j] == bits[i];
                if (table && seen)
                    continue; /* the same pattern once truncated */
                if (table)
                    printf("convert_%s\t%s\t%0*llx\t%0*llx\t%0*llx\t",
                           ty_scalar_name(d), ty_scalar_name(s), 2 * ss,
                           (unsigned long long)bits[i], 2 * ds,
                           (unsigned long long)clvm, 2 * ds,
                           (unsigned long long)want);
                for (unsigned k = 0; k <= NW; k++) {
                    uint64_t g = get(out[k] + i * ds, ds);
                    if (table) {
                        printf(" %0*llx%s", 2 * ds, (unsigned long long)g,
                               g != want ? "*" : "");
                        continue;
                    }
                    ++*checked;
                    if (g != want) {
                        bad++;
                        printf("FAIL %s%s(%s 0x%llx) width %u: PoCL 0x%llx, "
                               "profile 0x%llx\n", k ? "convert_" : "cast ",
                               ty_scalar_name(d), ty_scalar_name(s),
                               (unsigned long long)bits[i],
                               k ? widths[k - 1] : 1, (unsigned long long)g,
                               (unsigned long long)want);
                    }
                }
                if (table)
                    printf("\n");
            }
        }
    clReleaseProgram(p);
    return bad;
}

/* ------------------------------------------------------------------ */
/* as_type between element counts                                      */

/* One element type per size (and float, double: another register class);
 * the bits do not depend on signedness. */
static const enum ty_scalar atys[] = {TY_CHAR, TY_SHORT, TY_INT, TY_FLOAT,
                                      TY_LONG, TY_DOUBLE};
enum { NATY = 6, NWI = 16, ABYTES = 128 }; /* work-items, max sizeof */

/* How an operand is loaded and a result stored: vloadN/vstoreN (packed: a
 * 3-vector is 3 elements, its padding lane is not memory's) or through a
 * pointer to the vector type (sizeof bytes, a 3-vector's w included). */
enum { VIA_VEC, VIA_PTR };

struct as_case {
    ty_t d, s;
    int load, store;
};

/* Every as_<d>(<s>) of equal size and different counts, loaded and stored
 * both ways when a 3-vector is involved (its padding lane is what the
 * ways differ in), else through vloadN/vstoreN. */
static unsigned as_cases(struct as_case *c)
{
    unsigned n = 0;
    for (int si = 0; si < NATY; si++)
        for (int sw = 0; sw < NW; sw++)
            for (int di = 0; di < NATY; di++)
                for (int dw = 0; dw < NW; dw++) {
                    ty_t s = {(uint8_t)atys[si], (uint8_t)widths[sw]},
                         d = {(uint8_t)atys[di], (uint8_t)widths[dw]};
                    if (as_classify(d, s) == AS_OK ||
                        as_classify(d, s) == AS_SIZE)
                        continue;
                    int ways = s.n == 3 || d.n == 3 ? 2 : 1;
                    for (int l = 0; l < ways; l++)
                        for (int st = 0; st < ways; st++)
                            c[n++] = (struct as_case){d, s, l, st};
                }
    return n;
}

/* Bytes a value of t takes in the buffer, loaded or stored `via`. */
static size_t as_stride(ty_t t, int via)
{
    return via == VIA_PTR ? ty_sizeof(t)
                          : (size_t)t.n * ty_scalar_size((enum ty_scalar)t.s);
}

static char *as_source(const struct as_case *c, unsigned n)
{
    size_t cap = (size_t)n * 320, at = 0;
    char *s = malloc(cap);
    at += (size_t)snprintf(s, cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : "
                           "enable\n");
    for (unsigned k = 0; k < n; k++) {
        char dn[TY_NAME_MAX], sn[TY_NAME_MAX], ld[64];
        ty_name(c[k].d, dn);
        ty_name(c[k].s, sn);
        const char *de = ty_scalar_name((enum ty_scalar)c[k].d.s),
                   *se = ty_scalar_name((enum ty_scalar)c[k].s.s);
        if (c[k].s.n == 1 || c[k].load == VIA_PTR)
            snprintf(ld, sizeof ld, "((global const %s *)in)[i]", sn);
        else
            snprintf(ld, sizeof ld, "vload%u(i, in)", c[k].s.n);
        if (c[k].d.n == 1 || c[k].store == VIA_PTR)
            at += (size_t)snprintf(s + at, cap - at,
                "kernel void a%u(global const %s *in, global %s *out) { "
                "size_t i = get_global_id(0); ((global %s *)out)[i] = "
                "as_%s(%s); }\n", k, se, de, dn, dn, ld);
        else
            at += (size_t)snprintf(s + at, cap - at,
                "kernel void a%u(global const %s *in, global %s *out) { "
                "size_t i = get_global_id(0); vstore%u(as_%s(%s), i, out); "
                "}\n", k, se, de, c[k].d.n, dn, ld);
    }
    return s;
}

/* What PoCL gave for the bytes of one case, over all work-items: bytes
 * of the operand's lanes in the result's xyz.. lanes (memory order or
 * not), bytes of a 3-vector operand's padding lane, and of a 3-vector
 * result's w (seen only through a pointer store). */
struct as_result {
    unsigned order;              /* lane bytes not in memory order */
    unsigned pad, padmem, padzero; /* padding: as memory's bytes, zero */
    unsigned w, wmem, wzero;     /* w: the operand's bytes there, zero */
    uint8_t first[ABYTES];       /* work-item 1's result, for the table */
};

static void as_run(cl_program p, unsigned k, const struct as_case *c,
                   struct as_result *r)
{
    static uint8_t in[NWI * ABYTES], out[NWI * ABYTES];
    for (size_t j = 0; j < sizeof in; j++)
        in[j] = (uint8_t)(j * 37 + 5); /* distinct within 256 bytes */
    char name[16];
    snprintf(name, sizeof name, "a%u", k);
    const void *ins[1] = {in};
    size_t ls = as_stride(c->s, c->load), ss = as_stride(c->d, c->store),
           ses = ty_scalar_size((enum ty_scalar)c->s.s),
           des = ty_scalar_size((enum ty_scalar)c->d.s),
           lanes = (c->s.n == 3 ? 3 : c->s.n) * ses;
    run(p, name, NWI, 1, ins, sizeof in, out, NWI * ss);
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < NWI; i++) {
        /* clvm's result for the operand's lanes (padding: zero) */
        uint8_t reg[ABYTES] = {0}, want[ABYTES];
        memcpy(reg, in + i * ls, lanes);
        as_reinterpret(c->d, c->s, want, reg);
        for (size_t b = 0; b < ss; b++) {
            uint8_t g = out[i * ss + b], m = in[i * ls + b];
            if (i == 1)
                r->first[b] = g;
            if (c->d.n == 3 && b >= 3 * des) {
                r->w++;
                r->wmem += b < lanes && g == m;
                r->wzero += g == 0;
            } else if (b >= lanes) {
                r->pad++;
                r->padmem += c->load == VIA_PTR && g == m;
                r->padzero += g == 0;
            } else {
                r->order += g != want[b];
            }
        }
    }
}

/* Table mode prints a line per case; check mode reports the cases whose
 * bytes of the operand's lanes differ from as_reinterpret's (memory
 * order: clvm's rule, which every profile keeps). Returns those. */
static unsigned as_types(int table, unsigned *checked)
{
    static struct as_case c[2048];
    unsigned n = as_cases(c), bad = 0;
    char *src = as_source(c, n);
    cl_program p = build(src);
    free(src);
    static const char *const via[] = {"vec", "ptr"};
    for (unsigned k = 0; k < n; k++) {
        struct as_result r;
        as_run(p, k, &c[k], &r);
        char dn[TY_NAME_MAX], sn[TY_NAME_MAX];
        ty_name(c[k].d, dn);
        ty_name(c[k].s, sn);
        enum as_check cl = as_classify(c[k].d, c[k].s);
        ++*checked;
        bad += r.order != 0;
        if (!table) {
            if (r.order)
                printf("FAIL as_%s(%s) load %s store %s: %u bytes differ "
                       "from clvm's (memory order)\n", dn, sn, via[c[k].load],
                       via[c[k].store], r.order);
            continue;
        }
        printf("as_%s(%s)\t%s\t%s %s\t%s", dn, sn,
               cl == AS_COUNT ? "AS_COUNT" : cl == AS_4TO3 ? "AS_W"
                                                           : "AS_3TO4",
               via[c[k].load], via[c[k].store],
               r.order ? "NOT memory order" : "memory order");
        if (r.pad)
            printf("; padding: %u bytes, %u as memory, %u zero", r.pad,
                   r.padmem, r.padzero);
        if (r.w)
            printf("; w: %u bytes, %u the operand's, %u zero", r.w, r.wmem,
                   r.wzero);
        if (r.order || r.pad || r.w) {
            printf("\t");
            for (size_t b = 0; b < as_stride(c[k].d, c[k].store); b++)
                printf("%02x", r.first[b]);
        }
        printf("\n");
    }
    clReleaseProgram(p);
    return bad;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "arith1") && argc == 7)
        return arith_one(argv[2], argv[3][0], strtoull(argv[4], NULL, 0),
                         strtoull(argv[5], NULL, 0),
                         (unsigned)strtoul(argv[6], NULL, 0));
    if (!strcmp(mode, "check")) {
        if (!open_pocl() || strcmp(devname, POCL_DEVICE)) {
            printf("skipped: the pocl profile was measured on \"%s\"; this "
                   "host has %s%s%s\n", POCL_DEVICE, *devname ? "\"" : "",
                   *devname ? devname : "no PoCL device",
                   *devname ? "\"" : "");
            printf("test_pocl: 0 passed, 0 failed, 1 skipped\n");
            return 0;
        }
        unsigned nc = 0, nn = 0, na = 0, bc = conversions(0, &nc),
                 bn = narrows(0, &nn), ba = as_types(0, &na);
        printf("pocl profile vs %s: %u implementation-defined scalar "
               "conversions, %u differ; %u narrowing lanes (widths 1-16 and "
               "the cast), %u differ; %u as_type cases between element "
               "counts, %u differ in the operand's lanes\n", devname, nc, bc,
               nn, bn, na, ba);
        unsigned fail = !!bc + !!bn + !!ba;
        printf("test_pocl: %u passed, %u failed, 0 skipped\n", 3 - fail,
               fail);
        return fail != 0;
    }
    if (!strcmp(mode, "table") || !strcmp(mode, "arith") ||
        !strcmp(mode, "narrow") || !strcmp(mode, "as")) {
        if (!open_pocl()) {
            fprintf(stderr, "pocl: no PoCL device\n");
            return 3;
        }
        printf("# device: %s\n", devname);
        unsigned checked = 0;
        if (!strcmp(mode, "arith")) {
            printf("# type\tcase\tw1 w2 w3 w4 w8 w16\n");
            arith_table(argv[0]);
        } else if (!strcmp(mode, "narrow")) {
            printf("# op\tsrc\tinput\tclvm\tpocl-profile\tcast w1 w2 w3 w4 "
                   "w8 w16 (* differs from the profile)\n");
            narrows(1, &checked);
        } else if (!strcmp(mode, "as")) {
            printf("# as_type\tcase\tload store\tresult; the operand's "
                   "padding lane (NWI work-items)\twork-item 1's bytes\n");
            as_types(1, &checked);
        } else {
            printf("# op\tsrc\tinput\tclvm\tpocl-profile\tw1 w2 w3 w4 w8 "
                   "w16 (* differs from the profile)\n");
            conversions(1, &checked);
        }
        return 0;
    }
    fprintf(stderr, "usage: pocl table | arith | narrow | as | check\n");
    return 2;
}
