/* The JSON report of `clvm run --json` (tools/run_json.h). */
#include "tools/run_json.h"

#include "stdlib/note.h"
#include "stdlib/profile.h"
#include "tools/json.h"
#include "tools/value.h"

static const char *const trap_codes[] = {
    [VM_OK] = "OK",
#define X(E, msg) [VM_TRAP_##E] = #E,
    VM_TRAPS(X)
#undef X
};

static const char *param_name(const bc_module *m, const bc_kernel *k, int p)
{
    return p >= 0 && (uint32_t)p < k->nparams ? bc_str(m, k->params[p].name)
                                               : "";
}

/* Each element as its OpenCL C literal and its bits. */
static void buffer(json *j, const rj_run *r, const bc_kernel *k,
                   const rj_buf *b)
{
    const vm_arg *a = &r->args[b->param];
    size_t es = ty_sizeof(b->type);
    uint64_t n = es ? a->size / es : 0, bits[TY_MAXLANES];
    char tn[TY_NAME_MAX], text[VAL_TEXT_MAX];
    js_obj(j, param_name(r->m, k, (int)b->param));
    js_str(j, "type", ty_name(b->type, tn));
    js_u64(j, "bytes", a->size);
    js_arr(j, "values");
    for (uint64_t i = 0; i < n; i++) {
        val_load(b->type, a->data + i * es, bits);
        js_str(j, NULL, val_format(b->type, bits, 0, text));
    }
    js_end(j);
    js_arr(j, "hex");
    for (uint64_t i = 0; i < n; i++) {
        val_load(b->type, a->data + i * es, bits);
        js_str(j, NULL, val_format(b->type, bits, VAL_HEX, text));
    }
    js_end(j);
    js_end(j);
}

static void trap(json *j, const rj_run *r, const bc_kernel *k)
{
    const vm_trap *t = r->trap;
    js_obj(j, "trap");
    js_str(j, "kind", trap_codes[t->kind]);
    js_str(j, "what", vm_trap_name((enum vm_trapkind)t->kind));
    js_str(j, "kernel", bc_str(r->m, r->m->kernels[t->kernel].name));
    js_u64(j, "line", t->line);
    js_u64(j, "pc", t->pc);
    js_id3(j, "work_item", t->gid);
    if (t->has_addr) {
        js_str(j, "buffer", param_name(r->m, k, t->param));
        js_u64(j, "buffer_bytes", t->bufsize);
        js_u64(j, "offset", t->addr);
        js_u64(j, "bytes", t->len);
    }
    js_str(j, "message", t->msg);
    js_end(j);
}

static void notes(json *j, const rj_run *r)
{
    js_arr(j, "notes");
    for (size_t i = 0; r->warns && i < r->warns->n; i++) {
        const vm_warning *w = &r->warns->v[i];
        enum note_id id = (enum note_id)w->note;
        js_obj(j, NULL);
        js_str(j, "note", note_name(id));
        js_str(j, "kind", note_kind(id));
        js_str(j, "kernel", bc_str(r->m, r->m->kernels[w->kernel].name));
        js_u64(j, "line", w->line);
        js_u64(j, "pc", w->pc);
        js_u64(j, "count", w->count);
        js_id3(j, "first_work_item", w->gid);
        js_str(j, "gives", prof_what((enum prof_id)r->profile, id));
        js_end(j);
    }
    js_end(j);
}

void rj_write(FILE *f, const rj_run *r)
{
    const bc_kernel *k = &r->m->kernels[r->kernel];
    json j;
    js_open(&j, f);
    js_str(&j, "file", r->file);
    js_str(&j, "kernel", bc_str(r->m, k->name));
    js_str(&j, "profile", prof_name((enum prof_id)r->profile));
    js_str(&j, "status", r->kind ? "trap" : "ok");
    js_i64(&j, "exit", r->exit);
    js_obj(&j, "buffers");
    for (size_t i = 0; i < r->nbufs; i++)
        buffer(&j, r, k, &r->bufs[i]);
    js_end(&j);
    js_strn(&j, "printf", r->out ? r->out : "", r->out ? r->outlen : 0);
    if (r->kind)
        trap(&j, r, k);
    notes(&j, r);
    if (r->timed) {
        js_obj(&j, "time");
        js_f64(&j, "kernel_seconds", r->seconds);
        js_end(&j);
    }
    js_close(&j);
}

void rj_error(FILE *f, const char *file, const char *msg, int exit)
{
    json j;
    js_open(&j, f);
    js_str(&j, "file", file ? file : "");
    js_str(&j, "status", "error");
    js_i64(&j, "exit", exit);
    js_str(&j, "message", msg);
    js_close(&j);
}
