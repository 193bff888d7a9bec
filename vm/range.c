/* The NDRange of a run: validating what the caller asked for and filling
 * in what it left to clvm (local sizes, the warp width, threads). */
#include "vm/warp.h"

#include <string.h>

#include "stdlib/profile.h"
#include "vm/pool.h"
#include "vm/trap.h"

int vm_range_resolve(const vm_ndrange *nd, vm_range *r, vm_trap *t)
{
    memset(r, 0, sizeof *r);
    if (!nd || nd->dims < 1 || nd->dims > 3) {
        vm_trap_set(t, VM_TRAP_NDRANGE, "work dimension %u: must be 1, 2 "
                    "or 3", nd ? nd->dims : 0);
        return t->kind;
    }
    r->dims = nd->dims;
    uint64_t total = 1, group = 1;
    r->ngroups = 1;
    for (unsigned d = 0; d < 3; d++) {
        uint64_t g = 1, l = 1, o = 0;
        if (d < nd->dims) {
            g = nd->global[d], l = nd->local[d], o = nd->offset[d];
            if (g == 0) {
                vm_trap_set(t, VM_TRAP_NDRANGE, "global size 0 in "
                            "dimension %u", d);
                return t->kind;
            }
            if (o > UINT64_MAX - g) {
                vm_trap_set(t, VM_TRAP_NDRANGE, "global offset %llu + size "
                            "%llu overflows in dimension %u",
                            (unsigned long long)o, (unsigned long long)g, d);
                return t->kind;
            }
            if (l == 0) {
                l = d == 0 ? (g < VM_LOCAL_CHOICE ? g : VM_LOCAL_CHOICE) : 1;
                while (g % l)
                    l--;
            } else if (g % l) {
                vm_trap_set(t, VM_TRAP_NDRANGE, "global size %llu is not a "
                            "multiple of local size %llu in dimension %u",
                            (unsigned long long)g, (unsigned long long)l, d);
                return t->kind;
            }
        }
        if (g > (UINT64_MAX >> 1) / total) {
            vm_trap_set(t, VM_TRAP_NDRANGE, "more than 2^63 work-items");
            return t->kind;
        }
        total *= g;
        if (l > VM_MAX_GROUP || group * l > VM_MAX_GROUP) {
            vm_trap_set(t, VM_TRAP_NDRANGE, "work-group of more than %u "
                        "work-items (local size %llu in dimension %u)",
                        VM_MAX_GROUP, (unsigned long long)l, d);
            return t->kind;
        }
        group *= l;
        r->global[d] = g, r->local[d] = l, r->offset[d] = o;
        r->groups[d] = g / l;
        r->ngroups *= g / l;
    }
    unsigned w = nd->warp ? nd->warp : VM_MAXW;
    if (w > VM_MAXW) {
        vm_trap_set(t, VM_TRAP_NDRANGE, "warp of %u work-items: at most %u",
                    w, VM_MAXW);
        return t->kind;
    }
    r->group_size = (uint32_t)group;
    r->warp = w < group ? w : (uint32_t)group;
    r->nwarps = (r->group_size + r->warp - 1) / r->warp;
    unsigned th = nd->threads;
    if (th == 0)
        th = r->ngroups > 1 ? vm_cores() : 1;
    if (th > 256)
        th = 256;
    r->races = nd->races || nd->profile == PROF_STRICT;
    r->threads = r->ngroups < th ? (unsigned)r->ngroups : th;
    r->asked = nd->threads ? th : r->threads;
    r->max_steps = nd->max_steps ? nd->max_steps : VM_DEFAULT_MAX_STEPS;
    r->natives = nd->natives;
    r->out = nd->out ? nd->out : stdout;
    r->profile = nd->profile;
    r->warn_impl = nd->warn_impl;
    r->split = 1;
    return 0;
}

int vm_range_reqd(const bc_module *m, uint32_t k, const vm_ndrange *nd,
                  vm_ndrange *out, vm_trap *t)
{
    if (nd)
        *out = *nd;
    if (!nd || k >= m->nkernels)
        return 0;   /* vm_range_resolve and vm_prog_new say what is wrong */
    const bc_kernel *bk = &m->kernels[k];
    if (!(bk->reqd[0] | bk->reqd[1] | bk->reqd[2]))
        return 0;
    for (unsigned d = 0; d < 3; d++) {
        uint64_t want = bk->reqd[d];
        if (d < nd->dims && !nd->local[d])
            out->local[d] = want;
        else if (d < nd->dims ? nd->local[d] != want : want != 1) {
            vm_trap_set(t, VM_TRAP_NDRANGE, "kernel '%s' runs only with "
                        "local size (%u, %u, %u) (its reqd_work_group_size)",
                        bc_str(m, bk->name), bk->reqd[0], bk->reqd[1], bk->reqd[2]);
            return t->kind;
        }
    }
    return 0;
}
