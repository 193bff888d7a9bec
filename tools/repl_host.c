/* clvm exec --break KERNEL: the REPL on a kernel launch of a host
 * program, on the user's terminal, before the launch runs. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/repl.h"
#include "tools/repl_host.h"

/* The REPL's input and output: the descriptors clvm exec passed down
 * (CLVM_BREAK_FD=IN,OUT: its own standard input and output, whatever the
 * host program did with its own), else the terminal. */
static bool open_fds(int *in, int *out)
{
    const char *e = getenv("CLVM_BREAK_FD");
    if (e && sscanf(e, "%d,%d", in, out) == 2 && fcntl(*in, F_GETFD) >= 0 &&
        fcntl(*out, F_GETFD) >= 0) {
        *in = dup(*in), *out = dup(*out);
    } else {
        *in = open("/dev/tty", O_RDWR | O_CLOEXEC);
        *out = *in >= 0 ? dup(*in) : -1;
    }
    if (*in >= 0 && *out >= 0)
        return true;
    if (*in >= 0)
        close(*in);
    if (*out >= 0)
        close(*out);
    return false;
}

/* The NDRange as the REPL's global, local and offset commands take it. */
static int range_cmd(repl *r, int (*cmd)(repl *, char *),
                     const uint64_t v[3], unsigned dims)
{
    char t[96];
    int n = 0;
    for (unsigned d = 0; d < dims; d++)
        n += snprintf(t + n, sizeof t - (size_t)n, "%s%llu", d ? "," : "",
                      (unsigned long long)v[d]);
    return cmd(r, t);
}

static void session(repl *r, const bc_module *m, uint32_t k,
                    const char *src, const vm_arg *args,
                    const vm_ndrange *nd, FILE *in)
{
    const char *file = bc_str(m, m->source);
    printf("clvm: the host program launches kernel '%s': the REPL "
           "(continue once it has finished, or quit, goes back to the "
           "host program)\n", bc_str(m, m->kernels[k].name));
    if (repl_adopt(r, m, *file ? file : "program", src, k))
        return;
    r->host = args;
    r->nd.warp = nd->warp;
    r->nd.max_steps = nd->max_steps;
    r->profile = nd->profile;
    uint64_t zero[3] = {0, 0, 0};
    if (range_cmd(r, rc_global, nd->global, nd->dims) ||
        range_cmd(r, rc_offset, nd->offset, nd->dims) ||
        (memcmp(nd->local, zero, sizeof zero) &&
         range_cmd(r, rc_local, nd->local, nd->dims)))
        return;
    char b[300];
    snprintf(b, sizeof b, "%s", bc_str(m, m->kernels[k].name));
    if (rc_break(r, b) || rc_run(r, ""))
        return;
    fflush(stdout);
    repl_loop(r, in);
}

void repl_host(const bc_module *m, uint32_t k, const char *src,
               const vm_arg *args, const vm_ndrange *nd)
{
    int in, out;
    fflush(stdout);
    if (!open_fds(&in, &out)) {
        fprintf(stderr, "clvm: --break %s: no terminal for the REPL "
                "(/dev/tty, or CLVM_BREAK_FD): the launch runs on\n",
                bc_str(m, m->kernels[k].name));
        return;
    }
    FILE *fin = fdopen(in, "r");
    int saved = dup(1);
    repl r;
    if (fin && saved >= 0 && dup2(out, 1) >= 0 && repl_init(&r)) {
        r.tty = isatty(in);
        r.echo = !r.tty;   /* a transcript shows the commands */
        session(&r, m, k, src, args, nd, fin);
        repl_fini(&r);
    }
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, 1);
        close(saved);
    }
    if (fin)
        fclose(fin);
    else
        close(in);
    close(out);
}
