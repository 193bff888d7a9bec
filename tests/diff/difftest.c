/* Differential testing of clvm against an OpenCL implementation (PoCL).
 *
 *   difftest [--seed N] [--first F] [--count M] [--batch B] [--out DIR] [--show K]
 *
 * Generates kernels SEED:F .. SEED:F+M-1 (tests/diff/gen.c; F is 0 unless
 * given, so --first I --count 1 reruns kernel I alone), runs the OpenCL
 * C of each on the first OpenCL device and through clvm's own front end
 * (clang-14, llvm-spirv-14, asm/spirv/: tools/cc.c), and the IR on clvm,
 * and compares the three sets of output buffers bit for bit (NaNs: any NaN
 * equals any other, see docs/difftest.md). A mismatch is shrunk and written to DIR/NAME/ with
 * both sources, the inputs and a command line for `clvm run`. Kernels are
 * built B to an OpenCL program. Each implementation runs in a child
 * process with a time limit per kernel (DIFFTEST_TIMEOUT, tests/diff/dtjobs.c):
 * a PoCL hang is counted (fault 14), a clvm one fails. The last line is always
 * "difftest: P passed, F failed, S skipped"; the exit status is 1 when
 * something failed. Without an OpenCL platform every kernel is skipped. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asm/asm.h"
#include "tests/diff/accuracy.h"
#include "tests/diff/dtchild.h"
#include "tests/diff/dtjobs.h"
#include "tests/diff/dtprint.h"
#include "tests/diff/gen.h"
#include "tools/cc.h"
#include "tools/value.h"
#include "vm/vm.h"

static const char cl_prologue[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n";
/* Division and fma are then correctly rounded: the results are pinned. */
static const char cl_options[] = "-cl-fp32-correctly-rounded-divide-sqrt";

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;

static bool cl_init(void)
{
    cl_platform_id plat;
    cl_uint np = 0;
    cl_int err;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
        return false;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx)
        return false;
    queue = clCreateCommandQueue(ctx, dev, 0, &err);
    return queue != NULL;
}

/* What the IR's results are compared with: OpenCL (PoCL) or clvm's own
 * front end, both given the kernel as OpenCL C; and the IR itself. */
static bool run_cl(char **srcs, cl_job *jobs, int n, char **log);
static bool run_cc(char **srcs, cl_job *jobs, int n, char **log);
static bool run_ir(char **srcs, cl_job *jobs, int n, char **log);
static const side pocl_side = {run_cl, "OpenCL", "OpenCL"},
                  cc_side = {run_cc, "clvm's front end", "cc"},
                  ir_side = {run_ir, "clvm IR", "ir"};

/* Is there an OpenCL platform? (In a child: the parent never loads one.) */
static bool run_probe(char **srcs, cl_job *jobs, int n, char **log)
{
    (void)srcs, (void)n, (void)log;
    job_built();
    jobs[0].status = cl_init() ? JOB_RAN : JOB_FAILED;
    job_done(&jobs[0]);
    return true;
}
static const side probe_side = {run_probe, "OpenCL", "probe"};

/* ---- running on clvm ---- */

/* Runs kernel kidx of module m on k's inputs, with the value parameters
 * of pmask (dt_params_used); 0, or -1 with why in msg. */
static int run_module(const bc_module *m, uint32_t kidx, const dt_kernel *k, uint32_t pmask,
                      outs *o, char *msg, size_t msglen)
{
    vm_arg args[2 * DT_NBUF + DT_MAXPARAM];
    for (int b = 0; b < DT_NBUF; b++) {
        args[b] = (vm_arg){k->in[b], in_bytes(b)};
        memset(o->b[b], 0, out_bytes(b));
        args[DT_NBUF + b] = (vm_arg){o->b[b], out_bytes(b)};
    }
    int na = 2 * DT_NBUF;
    for (int i = 0; i < k->nparam; i++) /* a value: its bytes, ty_sizeof */
        if (pmask >> i & 1)
            args[na++] = (vm_arg){k->param[i].bytes, k->param[i].size};
    vm_ndrange nd = {.dims = 1, .global = {DT_ITEMS}, .local = {DT_LOCAL}, .threads = 1};
    vm_trap trap;
    free(o->text);
    o->text = NULL;
    if (k->prints && !(nd.out = open_memstream(&o->text, &o->tlen))) {
        snprintf(msg, msglen, "no memory for printf's output");
        return -1;
    }
    int rc = vm_run(m, kidx, args, &nd, &trap);
    if (nd.out)
        fclose(nd.out);
    if (rc) {
        snprintf(msg, msglen, "clvm trapped: %.480s", trap.msg);
        return -1;
    }
    return 0;
}

/* Runs the IR, whose value parameters are those of pmask; 0, or -1 with
 * why in msg. */
static int run_clvm(const char *ir, const dt_kernel *k, uint32_t pmask, outs *o, char *msg,
                    size_t msglen)
{
    char *diag = NULL;
    size_t dlen = 0;
    FILE *df = open_memstream(&diag, &dlen);
    bc_module m;
    int errs = asm_assemble(ir, strlen(ir), k->name, &m, df);
    fclose(df);
    if (errs) {
        snprintf(msg, msglen, "clvm asm failed:\n%s", diag);
        free(diag);
        return -1;
    }
    free(diag);
    int r = run_module(&m, 0, k, pmask, o, msg, msglen);
    bc_free(&m);
    return r;
}

/* The IR of each job (srcs) on clvm, in a child process: timed_run. */
static bool run_ir(char **srcs, cl_job *jobs, int n, char **log)
{
    (void)log;
    job_built();
    for (int i = 0; i < n; i++) {
        job_start(&ir_side, &jobs[i]);
        jobs[i].status = run_clvm(srcs[i], jobs[i].k, jobs[i].pmask, jobs[i].o, jobs[i].msg,
                                  sizeof jobs[i].msg) ? JOB_FAILED : JOB_RAN;
        job_done(&jobs[i]);
    }
    return true;
}

/* run_clvm within the time limit: 0, or JOB_FAILED or JOB_TIMEOUT with
 * why in msg. */
static int timed_clvm(const char *ir, const dt_kernel *k, uint32_t pmask, outs *o, char *msg,
                      size_t msglen)
{
    cl_job j = {.name = k->name, .k = k, .pmask = pmask, .o = o};
    char *src = (char *)ir, *log = NULL;
    timed_run(&ir_side, &src, &j, 1, &log);
    free(log);
    snprintf(msg, msglen, "%s", j.msg);
    return j.status;
}

/* ---- running on OpenCL ---- */

static void job_fail(cl_job *j, const char *what, cl_int err)
{
    j->status = -1;
    snprintf(j->msg, sizeof j->msg, "OpenCL: %s failed (error %d)", what, (int)err);
}

/* Runs job j of program prog, its printf output captured where it prints. */
static void run_cl_job(cl_program prog, cl_job *j)
{
    cl_mem mem[2 * DT_NBUF] = {0};
    cl_int err;
    j->status = JOB_RAN;
    job_start(&pocl_side, j);
    cl_kernel kern = clCreateKernel(prog, j->name, &err);
    if (!kern)
        job_fail(j, "clCreateKernel", err);
    for (int b = 0; b < 2 * DT_NBUF && !j->status; b++) {
        int ib = b % DT_NBUF;
        bool in = b < DT_NBUF;
        memset(j->o->b[ib], 0, out_bytes(ib));
        mem[b] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR | (in ? CL_MEM_READ_ONLY : 0),
                                in ? in_bytes(ib) : out_bytes(ib),
                                in ? j->k->in[ib] : j->o->b[ib], &err);
        if (!mem[b])
            job_fail(j, "clCreateBuffer", err);
        else if ((err = clSetKernelArg(kern, (cl_uint)b, sizeof(cl_mem), &mem[b])))
            job_fail(j, "clSetKernelArg", err);
    }
    cl_uint arg = 2 * DT_NBUF;
    for (int q = 0; q < j->k->nparam && !j->status; q++)
        if (j->pmask >> q & 1) {
            const dt_param *pa = &j->k->param[q];
            if ((err = clSetKernelArg(kern, arg++, pa->size, pa->bytes)))
                job_fail(j, "clSetKernelArg (value)", err);
        }
    size_t global = DT_ITEMS, local = DT_LOCAL;
    int cap = j->k->prints ? dtp_capture_begin() : -1; /* printed at the enqueue or after */
    if (!j->status &&
        (err = clEnqueueNDRangeKernel(queue, kern, 1, NULL, &global, &local, 0, NULL, NULL)))
        job_fail(j, "clEnqueueNDRangeKernel", err);
    for (int b = 0; b < DT_NBUF && !j->status; b++)
        if ((err = clEnqueueReadBuffer(queue, mem[DT_NBUF + b], CL_FALSE, 0, out_bytes(b),
                                       j->o->b[b], 0, NULL, NULL)))
            job_fail(j, "clEnqueueReadBuffer", err);
    err = clFinish(queue);
    char *printed = j->k->prints ? dtp_capture_end(cap) : NULL;
    free(j->o->text);
    j->o->text = printed ? dtp_lines_of(printed, j->name) : NULL;
    j->o->tlen = j->o->text ? strlen(j->o->text) : 0;
    free(printed);
    if (err && !j->status)
        job_fail(j, "clFinish", err);
    for (int b = 0; b < 2 * DT_NBUF; b++)
        if (mem[b])
            clReleaseMemObject(mem[b]);
    if (kern)
        clReleaseKernel(kern);
    job_done(j);
}

/* Builds one program from srcs and runs every job, one at a time (in a
 * child process: timed_run); a job's status says how it went. Returns
 * false when the program does not build (log in *log, malloc'd). */
static bool run_cl(char **srcs, cl_job *jobs, int n, char **log)
{
    if (!ctx && !cl_init()) {
        *log = strdup("no OpenCL platform or device");
        return false;
    }
    size_t len = sizeof cl_prologue;
    for (int i = 0; i < n; i++)
        len += strlen(srcs[i]) + 1;
    char *all = xcalloc(len), *p = all;
    p += sprintf(p, "%s", cl_prologue);
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s\n", srcs[i]);
    cl_int err;
    const char *s = all;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    free(all);
    if (!prog) {
        *log = strdup("clCreateProgramWithSource failed");
        return false;
    }
    if (clBuildProgram(prog, 1, &dev, cl_options, NULL, NULL) != CL_SUCCESS) {
        size_t ll = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ll);
        *log = xcalloc(ll + 1);
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, ll, *log, NULL);
        clReleaseProgram(prog);
        return false;
    }
    job_built();
    for (int i = 0; i < n; i++)
        run_cl_job(prog, &jobs[i]);
    clReleaseProgram(prog);
    return true;
}

/* ---- running through clvm's own front end ---- */

/* As run_cl, but the OpenCL C goes through clvm's front end (cc_load: clang,
 * llvm-spirv, asm/spirv/) and runs on clvm. False when the program does not
 * compile or translate (why in *log, malloc'd). */
static bool run_cc(char **srcs, cl_job *jobs, int n, char **log)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600], why[1024];
    snprintf(dir, sizeof dir, "%s/difftest-cc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        *log = strdup("cannot make a temporary directory");
        return false;
    }
    snprintf(path, sizeof path, "%s/k.cl", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(cl_prologue, f);
        for (int i = 0; i < n; i++)
            fprintf(f, "%s\n", srcs[i]);
        fclose(f);
    }
    char *diag = NULL;
    size_t dlen = 0;
    FILE *df = open_memstream(&diag, &dlen);
    char *opts[] = {(char *)cl_options, "-w"};   /* clang: no warnings */
    bc_module m;
    int rc = f ? cc_load(path, opts, 2, &m, df, why, sizeof why)
               : (snprintf(why, sizeof why, "cannot write %s", path), 1);
    fclose(df);
    unlink(path);
    rmdir(dir);
    if (rc) {
        *log = xcalloc(strlen(why) + dlen + 1);
        sprintf(*log, "%s%s", diag, why);
        free(diag);
        return false;
    }
    free(diag);
    job_built();
    for (int i = 0; i < n; i++) {
        cl_job *j = &jobs[i];
        job_start(&cc_side, j);
        uint32_t q = 0;
        while (q < m.nkernels && strcmp(bc_str(&m, m.kernels[q].name), j->name))
            q++;
        j->status = -1;
        if (q == m.nkernels)
            snprintf(j->msg, sizeof j->msg, "clvm's front end lost kernel %s", j->name);
        else
            j->status = run_module(&m, q, j->k, j->pmask, j->o, j->msg, sizeof j->msg);
        job_done(j);
    }
    bc_free(&m);
    return true;
}

/* Runs srcs on sd as one program; where that does not build, each alone,
 * so that only the kernels that do not build fail. */
static void run_batch(const side *sd, char **srcs, cl_job *jobs, int n)
{
    char *log = NULL;
    if (timed_run(sd, srcs, jobs, n, &log)) {
        free(log);
        return;
    }
    free(log);
    for (int i = 0; i < n; i++) {
        log = NULL;
        if (!timed_run(sd, &srcs[i], &jobs[i], 1, &log)) {
            jobs[i].status = -1;
            snprintf(jobs[i].msg, sizeof jobs[i].msg, "%s: build failed:\n%.400s", sd->name,
                     log ? log : "");
        }
        free(log);
    }
}

/* ---- comparing ---- */

static bool is_nan(int b, uint64_t v)
{
    switch (dt_buf_scalar[b]) {
    case TY_HALF: return (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
    case TY_FLOAT: return (v & 0x7f800000) == 0x7f800000 && (v & 0x7fffff);
    case TY_DOUBLE: return (v >> 52 & 0x7ff) == 0x7ff && (v & 0xfffffffffffffull);
    default: return false;
    }
}

static uint64_t elem(const uint8_t *p, int b, size_t i)
{
    size_t sz = elsize(b);
    uint64_t v = 0;
    for (size_t k = sz; k-- > 0;)
        v = v << 8 | p[i * sz + k];
    return v;
}

static int buf_of_scalar(unsigned s)
{
    for (int b = 0; b < DT_NBUF; b++)
        if (dt_buf_scalar[b] == s)
            return b;
    return 0;
}

/* Component c of a value parameter (little-endian bytes). */
static uint64_t param_elem(const dt_param *p, unsigned c)
{
    size_t es = ty_scalar_size((enum ty_scalar)p->type.s);
    uint64_t v = 0;
    for (size_t i = es; i-- > 0;)
        v = v << 8 | p->bytes[c * es + i];
    return v;
}

/* Elements where PoCL is outside the spec, by fault number (counted in
 * the main loop only, not while shrinking): NULL or counts[8]. */
static uint64_t *faults;

static double as_real(int b, uint64_t v)
{
    if (dt_buf_scalar[b] == TY_FLOAT) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Do the OpenCL implementation's x and clvm's y agree at element i of
 * buffer b? Bit for bit (any NaN equals any other), or within what the
 * spec allows where a math built-in of k wrote it (*apart: how far); k
 * NULL: bit for bit only (clvm's front end against its IR). */
static bool same_at(const dt_kernel *k, int b, size_t i, uint64_t x, uint64_t y, double *apart)
{
    const dt_math *m = k ? &k->math[b][i % DT_NOUT] : NULL;
    bool flt = ty_is_float((enum ty_scalar)dt_buf_scalar[b]);
    bool same = x == y || (is_nan(b, x) && is_nan(b, y));
    *apart = 0;
    if (!m || !m->fn1 || (!flt && same)) /* an integer output of a math call: exact */
        return same;
    enum mathfn f = (enum mathfn)(m->fn1 - 1);
    bool dbl = m->dbl;
    double ref = flt ? as_real(b, y) : NAN, v = flt ? as_real(b, x) : NAN;
    if (flt && dt_acc_within(f, dbl, m->n, m->second, ref, v, apart))
        return true;
    int fault = dt_acc_pocl_fault(f, dbl, m->n, ref, v);
    if (fault && faults)
        faults[fault]++;
    return fault != 0;
}

/* How printf's outputs differ, when differ says they do. */
static char text_diff[1024];

/* First differing element: buffer and index (buffer -1: printf's output,
 * the index that of the work-item's first element, text_diff says how);
 * false if none. */
static bool differ(const dt_kernel *k, const outs *a, const outs *o, int *fb, size_t *fi)
{
    double apart;
    size_t gid;
    if ((a->text || o->text) &&
        dtp_differ(a->text, o->text, &gid, text_diff, sizeof text_diff)) {
        *fb = -1;
        *fi = gid * DT_NOUT;
        return true;
    }
    for (size_t i = 0; i < (size_t)DT_ITEMS * DT_NOUT; i++) /* work-item order */
        for (int b = 0; b < DT_NBUF; b++)
            if (!same_at(k, b, i, elem(a->b[b], b, i), elem(o->b[b], b, i), &apart)) {
                *fb = b;
                *fi = i;
                return true;
            }
    return false;
}

/* ---- shrinking ---- */

/* The first error line of a build message without its digits and quoted
 * names (kernels, lines, registers, pcs), to tell whether a smaller kernel is
 * refused for the same reason. */
static void refusal_key(const char *msg, char *key, size_t cap)
{
    const char *p = strstr(msg, "error: ");
    size_t n = 0;
    bool quoted = false;
    for (p = p ? p : msg; *p && *p != '\n' && n + 1 < cap; p++) {
        quoted ^= *p == '\'';
        if (!quoted && (*p < '0' || *p > '9'))
            key[n++] = *p;
    }
    key[n] = 0;
}

static bool same_refusal(const cl_job *j, const char *refusal)
{
    char key[512];
    refusal_key(j->msg, key, sizeof key);
    return j->status && !strcmp(key, refusal);
}

/* Does the kernel, with these statements dead, still mismatch (or, with
 * refusal, is it still refused so)? Runs every candidate (a dead-set
 * each) in one program. result[c] true when candidate c does. */
static void try_candidates(dt_kernel *k, bool **dead, int nc, bool *result, const side *sd,
                           const char *refusal)
{
    char **srcs = xcalloc((size_t)nc * sizeof *srcs);
    char **irs = xcalloc((size_t)nc * sizeof *irs);
    cl_job *jobs = xcalloc((size_t)nc * sizeof *jobs);
    outs *po = xcalloc((size_t)nc * sizeof *po);
    char (*names)[32] = xcalloc((size_t)nc * sizeof *names);
    uint32_t *pmask = xcalloc((size_t)nc * sizeof *pmask);
    char saved[32];
    memcpy(saved, k->name, sizeof saved);
    bool *keep = xcalloc((size_t)k->nstmt);
    for (int s = 0; s < k->nstmt; s++)
        keep[s] = k->all[s]->dead;
    for (int c = 0; c < nc; c++) {
        for (int s = 0; s < k->nstmt; s++)
            k->all[s]->dead = dead[c][s];
        snprintf(names[c], sizeof names[c], "%.16s_%d", saved, c);
        snprintf(k->name, sizeof k->name, "%s", names[c]);
        srcs[c] = dt_render_cl(k);
        irs[c] = dt_render_ir(k);
        pmask[c] = dt_params_used(k);
        outs_alloc(&po[c]);
        jobs[c] = (cl_job){.name = names[c], .k = k, .pmask = pmask[c], .o = &po[c]};
    }
    memcpy(k->name, saved, sizeof saved);
    for (int s = 0; s < k->nstmt; s++)
        k->all[s]->dead = keep[s];
    char *log = NULL;
    bool built = refusal || timed_run(sd, srcs, jobs, nc, &log);
    free(log);
    if (refusal)
        run_batch(sd, srcs, jobs, nc);
    outs vo;
    outs_alloc(&vo);
    char msg[4096];
    for (int c = 0; c < nc; c++) {
        int fb;
        size_t fi;
        result[c] = refusal ? same_refusal(&jobs[c], refusal) : built && !jobs[c].status &&
                    !timed_clvm(irs[c], k, pmask[c], &vo, msg, sizeof msg) &&
                    differ(sd == &cc_side ? NULL : k, &po[c], &vo, &fb, &fi);
        free(srcs[c]);
        free(irs[c]);
        outs_free(&po[c]);
    }
    outs_free(&vo);
    free(keep);
    free(names);
    free(pmask);
    free(srcs);
    free(irs);
    free(jobs);
    free(po);
}

/* Drops statements while the outputs still differ (or, with refusal,
 * while sd still refuses the kernel so). */
static void shrink(dt_kernel *k, const side *sd, const char *refusal)
{
    int n = k->nstmt;
    bool **dead = xcalloc((size_t)n * sizeof *dead);
    for (int c = 0; c < n; c++)
        dead[c] = xcalloc((size_t)n);
    bool *result = xcalloc((size_t)n);
    int *live = xcalloc((size_t)n * sizeof *live);
    for (int round = 0; round < 20; round++) {
        int nl = 0;
        for (int s = 0; s < n; s++)
            if (!k->all[s]->dead && !k->all[s]->keep)
                live[nl++] = s;
        for (int c = 0; c < nl; c++) {
            for (int s = 0; s < n; s++)
                dead[c][s] = k->all[s]->dead || s == live[c];
        }
        try_candidates(k, dead, nl, result, sd, refusal);
        int nr = 0;
        for (int c = 0; c < nl; c++)
            if (result[c])
                live[nr++] = live[c];
        if (nr == 0)
            break;
        /* Usually every statement that can go alone can go together. */
        for (int s = 0; s < n; s++)
            dead[0][s] = k->all[s]->dead;
        for (int c = 0; c < nr; c++)
            dead[0][live[c]] = true;
        bool together = false;
        if (nr > 1)
            try_candidates(k, dead, 1, &together, sd, refusal);
        if (together || nr == 1)
            for (int c = 0; c < nr; c++)
                k->all[live[c]]->dead = true;
        else
            k->all[live[0]]->dead = true;
    }
    for (int c = 0; c < n; c++)
        free(dead[c]);
    free(dead);
    free(result);
    free(live);
}

/* ---- reporting ---- */

static void both(FILE *f1, FILE *f2, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f1, fmt, ap);
    va_end(ap);
    if (f2) {
        va_start(ap, fmt);
        vfprintf(f2, fmt, ap);
        va_end(ap);
    }
}

static void write_file(const char *dir, const char *name, const void *data, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n)
        fprintf(stderr, "difftest: cannot write %s: %s\n", path, strerror(errno));
    if (f)
        fclose(f);
}

static void mkdirs(const char *path)
{
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    mkdir(p, 0777);
}

static bool param_used(const char *src, char io, int b)
{
    char name[16];
    snprintf(name, sizeof name, "%c_%s", io, dt_buf_suffix[b]);
    for (const char *p = src; (p = strstr(p, name)); p++) {
        char c = p[strlen(name)];
        if (p[-1] != '*' && !(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return true;
    }
    return false;
}

/* Prints and writes the reproducer of a mismatching (shrunk) kernel. */
static void report(dt_kernel *k, const char *outdir, const side *sd)
{
    char *cl = dt_render_cl(k), *ir = dt_render_ir(k);
    char dir[1024], msg[4096];
    snprintf(dir, sizeof dir, "%s/%s-%" PRIu64, outdir, k->name, k->seed);
    mkdirs(dir);
    outs po, vo;
    outs_alloc(&po);
    outs_alloc(&vo);
    uint32_t pmask = dt_params_used(k);
    cl_job job = {.name = k->name, .k = k, .pmask = pmask, .o = &po};
    char *log = NULL;
    bool ok = timed_run(sd, &cl, &job, 1, &log) && !job.status &&
              !timed_clvm(ir, k, pmask, &vo, msg, sizeof msg);
    free(log);
    char path[1100];
    snprintf(path, sizeof path, "%s/report.txt", dir);
    FILE *rf = fopen(path, "w");
    both(stdout, rf, "==== MISMATCH %s (seed %" PRIu64 "): %s and clvm IR ====\n"
         "--- OpenCL C (%s/%s.cl)\n%s%s", k->name, k->seed, sd->name, dir, k->name,
         cl_prologue, cl);
    both(stdout, rf, "--- clvm IR (%s/%s.clasm)\n%s", dir, k->name, ir);
    size_t fi = 0;
    int fb = 0;
    if (ok && differ(sd == &cc_side ? NULL : k, &po, &vo, &fb, &fi)) {
        size_t w = fi / DT_NOUT;
        both(stdout, rf, "--- inputs of work-item %zu (gid), element bits in hex; all %d "
             "work-items' in %s/in_*.bin\n", w, DT_ITEMS, dir);
        for (int b = 0; b < DT_NBUF; b++) {
            if (!param_used(cl, 'i', b))
                continue;
            for (size_t e = 0; e < DT_NIN; e++)
                both(stdout, rf, "%si_%s[gid*%d+%zu] = 0x%0*" PRIx64 "%s",
                     e % 6 ? "  " : "", dt_buf_suffix[b], DT_NIN, e, (int)elsize(b) * 2,
                     elem(k->in[b], b, w * DT_NIN + e), e % 6 == 5 ? "\n" : "");
        }
        for (int i = 0; i < k->nparam; i++)
            if (pmask >> i & 1) {
                const dt_param *pa = &k->param[i];
                char tb[TY_NAME_MAX];
                both(stdout, rf, "p%d (%s, every work-item) =", i, ty_name(pa->type, tb));
                for (unsigned c = 0; c < pa->type.n; c++)
                    both(stdout, rf, " 0x%0*" PRIx64, (int)ty_scalar_size(pa->type.s) * 2,
                         param_elem(pa, c));
                both(stdout, rf, "\n");
            }
        both(stdout, rf, "--- outputs of work-item %zu that differ (%s | clvm IR)\n", w,
             sd->name);
        if (fb < 0)
            both(stdout, rf, "%s\n", text_diff);
        for (int b = 0; b < DT_NBUF; b++)
            for (size_t e = 0; e < DT_NOUT; e++) {
                uint64_t x = elem(po.b[b], b, w * DT_NOUT + e), y = elem(vo.b[b], b, w * DT_NOUT + e);
                double apart;
                if (same_at(sd == &cc_side ? NULL : k, b, w * DT_NOUT + e, x, y, &apart))
                    continue;
                both(stdout, rf, "o_%s[gid*%d+%zu]: 0x%0*" PRIx64 " | 0x%0*" PRIx64,
                     dt_buf_suffix[b], DT_NOUT, e, (int)elsize(b) * 2, x, (int)elsize(b) * 2, y);
                const dt_math *m = &k->math[b][e];
                if (m->fn1)
                    both(stdout, rf, "  (%s%s: %g apart, OpenCL allows %g)",
                         mathfns[m->fn1 - 1].name, m->second ? "'s pointer output" : "", apart,
                         dt_acc_bound((enum mathfn)(m->fn1 - 1), m->dbl,
                                      m->n, m->second));
                both(stdout, rf, "\n");
            }
    } else {
        both(stdout, rf, "(the shrunk kernel no longer mismatches on its own: %s)\n",
             ok ? "outputs equal" : msg);
    }
    both(stdout, rf, "--- rerun on clvm:\nclvm run %s/%s.clasm --global %d", dir, k->name, DT_ITEMS);
    for (int b = 0; b < DT_NBUF; b++) {
        char name[32];
        snprintf(name, sizeof name, "in_%s.bin", dt_buf_suffix[b]);
        write_file(dir, name, k->in[b], in_bytes(b));
        both(stdout, rf, " --arg i_%s=@%s/%s", dt_buf_suffix[b], dir, name);
    }
    for (int b = 0; b < DT_NBUF; b++)
        both(stdout, rf, " --arg o_%s=zeros:%zu", dt_buf_suffix[b], out_bytes(b));
    bool payload = false;
    for (int i = 0; i < k->nparam; i++)
        if (pmask >> i & 1) {
            const dt_param *pa = &k->param[i];
            uint64_t bits[16];
            char text[VAL_TEXT_MAX];
            for (unsigned c = 0; c < pa->type.n; c++) {
                bits[c] = param_elem(pa, c);
                payload |= is_nan(buf_of_scalar(pa->type.s), bits[c]) &&
                           bits[c] != (pa->type.s == TY_FLOAT ? 0x7fc00000u : 0x7ff8000000000000u);
            }
            both(stdout, rf, " --arg 'p%d=%s'", i, val_format(pa->type, bits, 0, text));
        }
    for (int b = 0; b < DT_NBUF; b++)
        if (param_used(cl, 'o', b))
            both(stdout, rf, " --print o_%s:hex", dt_buf_suffix[b]);
    both(stdout, rf, "\n%s====\n",
         payload ? "(a NaN parameter's sign and payload are the bits above; --arg gives "
                   "the quiet NaN)\n" : "");
    if (rf)
        fclose(rf);
    char name[64];
    snprintf(name, sizeof name, "%s.cl", k->name);
    char *full = xcalloc(strlen(cl) + sizeof cl_prologue);
    sprintf(full, "%s%s", cl_prologue, cl);
    write_file(dir, name, full, strlen(full));
    snprintf(name, sizeof name, "%s.clasm", k->name);
    write_file(dir, name, ir, strlen(ir));
    free(full);
    outs_free(&po);
    outs_free(&vo);
    free(cl);
    free(ir);
}

/* Shrinks a kernel clvm's front end refuses (or cannot run) while it is
 * refused for the same reason, and prints and writes the smallest. */
static void report_refusal(dt_kernel *k, const cl_job *j, const char *outdir)
{
    char key[512], dir[1024], name[64];
    refusal_key(j->msg, key, sizeof key);
    shrink(k, &cc_side, key);
    char *cl = dt_render_cl(k);
    char *full = xcalloc(strlen(cl) + sizeof cl_prologue);
    sprintf(full, "%s%s", cl_prologue, cl);
    snprintf(dir, sizeof dir, "%s/%s-%" PRIu64, outdir, k->name, k->seed);
    mkdirs(dir);
    snprintf(name, sizeof name, "%s.cl", k->name);
    write_file(dir, name, full, strlen(full));
    printf("==== REFUSED %s (seed %" PRIu64 ") by clvm's front end, shrunk (%s/%s) ====\n"
           "%s\n%s====\n", k->name, k->seed, dir, name, key, full);
    free(full);
    free(cl);
}

/* ---- main ---- */

/* Failures by kind, for the summary. */
static uint64_t n_opencl, n_ir, n_pocl_ir, n_cc, n_cc_ir;
/* Kernels OpenCL (PoCL) ran past the time limit: fault 14, not failures. */
static uint64_t n_pocl_hang;

/* Compares kernel k's three runs: OpenCL (pj), clvm's front end (cj) and
 * the IR; true if all agree (the front end and the IR bit for bit, OpenCL
 * as same_at says, its faults counted in counts). A mismatch is shrunk
 * and reported while *shown < show. */
static bool check(dt_kernel *k, const char *src, const cl_job *pj, const cl_job *cj, outs *vo,
                  uint64_t *shown, uint64_t show, const char *outdir, uint64_t *counts)
{
    char *ir = dt_render_ir(k);
    char msg[8192];
    int fb;
    size_t fi;
    const side *sd = NULL;
    const outs *other = NULL;
    uint64_t seed = k->seed;
    bool ok = false;
    if (pj->status == JOB_TIMEOUT) {
        n_pocl_hang++;
        printf("HANG %s (seed %" PRIu64 "): %s (PoCL's fault 14, docs/difftest.md; not a "
               "failure)\n", k->name, seed, pj->msg);
    }
    if (pj->status && pj->status != JOB_TIMEOUT) {
        n_opencl++;
        printf("FAIL %s (seed %" PRIu64 "): %s\n%s%s", k->name, seed, pj->msg, cl_prologue, src);
    } else if (timed_clvm(ir, k, pj->pmask, vo, msg, sizeof msg)) {
        n_ir++;
        printf("FAIL %s (seed %" PRIu64 "): %s\n%s", k->name, seed, msg, ir);
    } else if (!pj->status && (faults = counts, differ(k, pj->o, vo, &fb, &fi))) {
        n_pocl_ir++;
        sd = &pocl_side, other = pj->o;
    } else if (cj->status) {
        n_cc++;
        printf("FAIL %s (seed %" PRIu64 "): %s\n%s%s", k->name, seed, cj->msg,
               cl_prologue, src);
        if (cj->status != JOB_TIMEOUT && (*shown)++ < show)
            report_refusal(k, cj, outdir);
    } else if (differ(NULL, cj->o, vo, &fb, &fi)) {
        n_cc_ir++;
        sd = &cc_side, other = cj->o;
    } else {
        ok = true;
    }
    faults = NULL;
    if (sd && fb < 0)
        printf("FAIL %s (seed %" PRIu64 "): %s | clvm IR: %s\n", k->name, seed, sd->name,
               text_diff);
    else if (sd)
        printf("FAIL %s (seed %" PRIu64 "): o_%s[%zu] differs: %s 0x%" PRIx64 ", clvm IR 0x%"
               PRIx64 "\n", k->name, seed, dt_buf_suffix[fb], fi, sd->name,
               elem(other->b[fb], fb, fi), elem(vo->b[fb], fb, fi));
    if (sd) {
        if ((*shown)++ < show) {
            shrink(k, sd, NULL);
            report(k, outdir, sd);
        }
    }
    free(ir);
    return ok;
}


static uint64_t num(const char *s, const char *what)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *end || errno) {
        fprintf(stderr, "difftest: bad %s '%s'\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, start = 0, count = 100, batch = 40, show = 5;
    const char *outdir = "build/difftest";
    dt_acc_check_table();
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "usage: difftest [--seed N] [--first F] [--count M] [--batch B] "
                    "[--out DIR] [--show K]\n");
            return 2;
        }
        if (!strcmp(a, "--seed"))
            seed = num(v, "seed");
        else if (!strcmp(a, "--first"))
            start = num(v, "first");
        else if (!strcmp(a, "--count"))
            count = num(v, "count");
        else if (!strcmp(a, "--batch"))
            batch = num(v, "batch");
        else if (!strcmp(a, "--out"))
            outdir = v;
        else if (!strcmp(a, "--show"))
            show = num(v, "show");
        else {
            fprintf(stderr, "difftest: unknown option '%s'\n", a);
            return 2;
        }
    }
    if (batch == 0 || batch > 1000)
        batch = 40;
    setenv("POCL_MAX_PTHREAD_COUNT", "1", 0);
    /* a program PoCL 3.1 loads from its kernel cache may print nothing
     * (docs/difftest.md, fault 13) */
    setenv("POCL_KERNEL_CACHE", "0", 0);
    cl_job probe = {.name = ""};
    char *log = NULL;
    timed_run(&probe_side, NULL, &probe, 1, &log);
    free(log);
    if (probe.status) {
        printf("difftest: no OpenCL platform or device: every kernel skipped\n");
        printf("difftest: 0 passed, 0 failed, %" PRIu64 " skipped\n", count);
        return 0;
    }
    uint64_t passed = 0, failed = 0, shown = 0, fault_count[8] = {0};
    dt_kernel *ks = xcalloc(batch * sizeof *ks);
    char **srcs = xcalloc(batch * sizeof *srcs);
    cl_job *jobs = xcalloc(batch * sizeof *jobs), *cjobs = xcalloc(batch * sizeof *cjobs);
    outs *po = xcalloc(batch * sizeof *po), *co = xcalloc(batch * sizeof *co), vo;
    outs_alloc(&vo);
    for (uint64_t b = 0; b < batch; b++)
        outs_alloc(&po[b]), outs_alloc(&co[b]);
    for (uint64_t first = 0; first < count; first += batch) {
        int n = (int)(count - first < batch ? count - first : batch);
        for (int i = 0; i < n; i++) {
            dt_generate(&ks[i], seed, start + first + (uint64_t)i);
            srcs[i] = dt_render_cl(&ks[i]);
            jobs[i] = (cl_job){.name = ks[i].name, .k = &ks[i], .pmask = dt_params_used(&ks[i]),
                               .o = &po[i]};
            cjobs[i] = jobs[i];
            cjobs[i].o = &co[i];
        }
        run_batch(&pocl_side, srcs, jobs, n);
        run_batch(&cc_side, srcs, cjobs, n);
        for (int i = 0; i < n; i++) {
            if (check(&ks[i], srcs[i], &jobs[i], &cjobs[i], &vo, &shown, show, outdir,
                      fault_count))
                passed++;
            else
                failed++;
            fflush(stdout);
            free(srcs[i]);
            dt_free(&ks[i]);
        }
        fprintf(stderr, "difftest: %" PRIu64 "/%" PRIu64 " kernels\n", first + (uint64_t)n, count);
    }
    for (uint64_t b = 0; b < batch; b++)
        outs_free(&po[b]), outs_free(&co[b]);
    outs_free(&vo);
    free(po);
    free(co);
    free(ks);
    free(srcs);
    free(jobs);
    free(cjobs);
    if (failed)
        printf("difftest: failures: %" PRIu64 " OpenCL build or run, %" PRIu64 " clvm IR, %"
               PRIu64 " OpenCL vs IR, %" PRIu64 " clvm front end build or run, %" PRIu64
               " front end vs IR\n", n_opencl, n_ir, n_pocl_ir, n_cc, n_cc_ir);
    if (fault_count[4] + fault_count[5] + fault_count[6])
        printf("difftest: PoCL outside the spec, where clvm's bits are the spec's (docs/difftest.md): "
               "fault 4 %" PRIu64 ", fault 5 %" PRIu64 ", fault 6 %" PRIu64 " elements\n",
               fault_count[4], fault_count[5], fault_count[6]);
    if (n_pocl_hang)
        printf("difftest: PoCL hangs (fault 14, docs/difftest.md): %" PRIu64 " kernels ran "
               "past the time limit of %g s there\n", n_pocl_hang, dtc_limit());
    printf("difftest: %" PRIu64 " passed, %" PRIu64 " failed, 0 skipped\n", passed, failed);
    return failed != 0;
}
