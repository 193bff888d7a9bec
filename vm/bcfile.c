/* The .bc file format (docs/bytecode.md): writer, reader, file helpers.
 *
 * Every multi-byte field is little-endian and goes through get/put helpers,
 * never through a host struct, so files are the same on every host. The
 * reader trusts nothing: each offset, size and count is checked against the
 * bytes that are really there, in 64-bit arithmetic, before anything is
 * read or allocated; then bc_verify checks the meaning. */
#include "vm/bcfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/bytes.h"
#include "vm/vm.h"

/* Fixed sizes of the file's records, in bytes. */
enum {
    HDR = 16,        /* magic, version, flags, section count */
    SECENT = 12,     /* section table entry: id, offset, size */
    KSEC = 8,        /* kernels section head: source, kernel count */
    KREC = 24,       /* kernel record: name, line, 4 counts */
    PREC = 8,        /* parameter: name, register */
    RREC = 16,       /* register */
    LREC = 8,        /* line entry: pc, line */
    XREC = 12,       /* extern: name, result type, parameter count */
    CREC = 4,        /* C type: scalar, kind, 2 bytes 0 */
    BREC = 24,       /* by-value parameter: kernel, param, size, align,
                        type, layout */
    GREC = 12,       /* groupsize: a kernel's required local size */
    NSEC = 8,        /* sections this version knows; 'externs', 'byval'
                        and 'groupsize' (the last three) are written only
                        when the module needs them, so other files are as
                        before */
};

/* Does some kernel of m require a local size (section 'groupsize')? */
static bool has_reqd(const bc_module *m)
{
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (m->kernels[i].reqd[0] | m->kernels[i].reqd[1] |
            m->kernels[i].reqd[2])
            return true;
    return false;
}

static const uint32_t sec_ids[NSEC] = {
#define X(E, id, name) BC_SEC_##E,
    BC_SECTIONS(X)
#undef X
};

const char *bc_section_name(uint32_t id)
{
    switch (id) {
#define X(E, i, name) case BC_SEC_##E: return name;
        BC_SECTIONS(X)
#undef X
    }
    return NULL;
}

/* The file's fields: little-endian, through stdlib/bytes.h. */
static void put16(uint8_t *p, uint32_t v) { le_store(p, 2, v); }
static void put32(uint8_t *p, uint32_t v) { le_store(p, 4, v); }
static uint32_t get16(const uint8_t *p) { return (uint32_t)le_load(p, 2); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)le_load(p, 4); }

/* ---- writer ---- */

/* The byval section: a count, then a record per by-value parameter. */
static void write_byval(const bc_module *m, uint8_t *p, uint32_t n)
{
    put32(p, n);
    p += 4;
    for (uint32_t i = 0; i < m->nkernels; i++)
        for (uint32_t j = 0; j < m->kernels[i].nparams; j++) {
            const bc_byval *v = &m->kernels[i].params[j].byval;
            if (!v->size)
                continue;
            put32(p, i), put32(p + 4, j), put32(p + 8, v->size);
            put32(p + 12, v->align), put32(p + 16, v->type);
            put32(p + 20, v->layout);
            p += BREC;
        }
}

int bc_write(const bc_module *m, uint8_t **buf, size_t *len)
{
    uint64_t size[NSEC] = {m->nstrings, m->nconst, KSEC, 0, 0, 4, 4,
                           (uint64_t)m->nkernels * GREC}, off[NSEC];
    uint32_t nbyval = 0;
    int nsec = 0;
    if ((m->nstrings && !m->strings) || (m->nconst && !m->consts) ||
        (m->nkernels && !m->kernels) || (m->nexterns && !m->externs))
        return -1;
    for (uint32_t i = 0; i < m->nexterns; i++) {
        if (m->externs[i].nparams && !m->externs[i].params)
            return -1;
        size[5] += XREC + (uint64_t)m->externs[i].nparams * CREC;
    }
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const bc_kernel *k = &m->kernels[i];
        if ((k->nparams && !k->params) || (k->nregs && !k->regs) ||
            (k->ncode && !k->code) || (k->nlines && !k->lines))
            return -1;
        size[2] += KREC + (uint64_t)k->nparams * PREC +
                   (uint64_t)k->nregs * RREC;
        for (uint32_t j = 0; j < k->nparams; j++)
            nbyval += k->params[j].byval.size != 0;
        size[3] += (uint64_t)k->ncode * 4;
        size[4] += (uint64_t)k->nlines * LREC;
    }
    size[6] += (uint64_t)nbyval * BREC;
    const bool want[NSEC] = {true, true, true, true, true, m->nexterns > 0,
                             nbyval > 0, has_reqd(m)};
    /* Sections start 4-aligned so code words are aligned in a mapped
     * file; the file ends where the last section does. */
    for (int s = 0; s < NSEC; s++)
        nsec += want[s];
    uint64_t end = HDR + nsec * SECENT;
    for (int s = 0; s < NSEC; s++) {
        if (!want[s])
            continue;
        end = (end + 3) & ~(uint64_t)3;
        off[s] = end;
        end += size[s];
    }
    if (end > UINT32_MAX)
        return -1;
    uint8_t *b = calloc(1, (size_t)end), *p;
    if (!b)
        return -1;
    memcpy(b, BC_MAGIC, 8);
    put16(b + 8, BC_FORMAT_VERSION);
    put16(b + 10, 0);
    put32(b + 12, (uint32_t)nsec);
    for (int s = 0, e = 0; s < NSEC; s++) {
        if (!want[s])
            continue;
        put32(b + HDR + e * SECENT, sec_ids[s]);
        put32(b + HDR + e * SECENT + 4, (uint32_t)off[s]);
        put32(b + HDR + e * SECENT + 8, (uint32_t)size[s]);
        e++;
    }
    if (m->nstrings)
        memcpy(b + off[0], m->strings, m->nstrings);
    if (m->nconst)
        memcpy(b + off[1], m->consts, m->nconst);
    p = b + off[2];
    put32(p, m->source);
    put32(p + 4, m->nkernels);
    p += KSEC;
    uint8_t *code = b + off[3], *lines = b + off[4];
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const bc_kernel *k = &m->kernels[i];
        put32(p, k->name);
        put32(p + 4, k->line);
        put32(p + 8, k->nparams);
        put32(p + 12, k->nregs);
        put32(p + 16, k->ncode);
        put32(p + 20, k->nlines);
        p += KREC;
        for (uint32_t j = 0; j < k->nparams; j++, p += PREC) {
            put32(p, k->params[j].name);
            put32(p + 4, k->params[j].reg);
        }
        for (uint32_t j = 0; j < k->nregs; j++, p += RREC) {
            const bc_reg *r = &k->regs[j];
            put32(p, r->name);
            p[4] = r->type.s;
            p[5] = r->type.n;
            p[6] = r->kind;
            p[7] = r->space;
            p[8] = r->init;
            p[9] = r->flags;
            put16(p + 10, 0);
            put32(p + 12, r->arg);
        }
        for (uint32_t j = 0; j < k->ncode; j++, code += 4)
            put32(code, k->code[j]);
        for (uint32_t j = 0; j < k->nlines; j++, lines += LREC) {
            put32(lines, k->lines[j].pc);
            put32(lines + 4, k->lines[j].line);
        }
    }
    if (m->nexterns) {
        p = b + off[5];
        put32(p, m->nexterns);
        p += 4;
        for (uint32_t i = 0; i < m->nexterns; i++) {
            const bc_extern *x = &m->externs[i];
            put32(p, x->name);
            p[4] = x->ret.s;
            p[5] = x->ret.kind;
            put32(p + 8, x->nparams);
            p += XREC;
            for (uint32_t j = 0; j < x->nparams; j++, p += CREC) {
                p[0] = x->params[j].s;
                p[1] = x->params[j].kind;
            }
        }
    }
    if (nbyval)
        write_byval(m, b + off[6], nbyval);
    for (uint32_t i = 0; want[7] && i < m->nkernels; i++)
        for (int d = 0; d < 3; d++)
            put32(b + off[7] + i * GREC + d * 4, m->kernels[i].reqd[d]);
    *buf = b;
    *len = (size_t)end;
    return 0;
}

/* ---- reader ---- */

typedef struct {
    const uint8_t *buf;
    size_t len;
    char *err;
    size_t errlen;
} rd;

/* A section being consumed: [pos, end) of the file. */
typedef struct {
    size_t pos, end;
    const char *name;
} cur;

static int rerr(rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int rerr(rd *r, const char *fmt, ...)
{
    if (r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, r->errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int oom(rd *r)
{
    return rerr(r, "out of memory");
}

/* A copy of n file bytes at pos, in *out (NULL when n is 0). */
static int copy_out(rd *r, size_t pos, uint32_t n, uint8_t **out)
{
    if (n && !(*out = malloc(n)))
        return oom(r);
    if (n)
        memcpy(*out, r->buf + pos, n);
    return 0;
}

static bool left(const cur *c, uint64_t need)
{
    return need <= c->end - c->pos;
}

/* The kernels section and, through it, the code and line sections. */
static int read_kernels(rd *r, bc_module *m, cur *kc, cur *cc, cur *lc)
{
    const uint8_t *b = r->buf;
    uint32_t nk = 0;
    if (kc->end != kc->pos) {   /* absent: no kernels, source "" */
        if (!left(kc, KSEC))
            return rerr(r, "section 'kernels' at 0x%zx is too short "
                           "(%zu bytes, need %d)", kc->pos,
                        kc->end - kc->pos, KSEC);
        m->source = get32(b + kc->pos);
        nk = get32(b + kc->pos + 4);
        kc->pos += KSEC;
    }
    /* Never allocate for more records than the section could hold. */
    if (!left(kc, (uint64_t)nk * KREC))
        return rerr(r, "section 'kernels' at 0x%zx: %u kernels need at "
                       "least %llu bytes, %zu left", kc->pos, nk,
                    (unsigned long long)nk * KREC, kc->end - kc->pos);
    if (nk && !(m->kernels = calloc(nk, sizeof *m->kernels)))
        return oom(r);
    m->nkernels = nk;
    for (uint32_t i = 0; i < nk; i++) {
        bc_kernel *k = &m->kernels[i];
        size_t at = kc->pos;
        if (!left(kc, KREC))
            return rerr(r, "kernel %u at 0x%zx: record runs past the end "
                           "of section 'kernels'", i, at);
        const uint8_t *p = b + at;
        k->name = get32(p);
        k->line = get32(p + 4);
        uint32_t np = get32(p + 8), nr = get32(p + 12);
        uint32_t nc = get32(p + 16), nl = get32(p + 20);
        kc->pos += KREC;
        uint64_t need = (uint64_t)np * PREC + (uint64_t)nr * RREC;
        if (!left(kc, need))
            return rerr(r, "kernel %u at 0x%zx: %u params and %u registers "
                           "need %llu bytes, section 'kernels' has %zu left",
                        i, at, np, nr, (unsigned long long)need,
                        kc->end - kc->pos);
        if (!left(cc, (uint64_t)nc * 4))
            return rerr(r, "kernel %u at 0x%zx: %u code words need %llu "
                           "bytes, section 'code' has %zu left", i, at, nc,
                        (unsigned long long)nc * 4, cc->end - cc->pos);
        if (!left(lc, (uint64_t)nl * LREC))
            return rerr(r, "kernel %u at 0x%zx: %u line entries need %llu "
                           "bytes, section 'lines' has %zu left", i, at, nl,
                        (unsigned long long)nl * LREC, lc->end - lc->pos);
        if ((np && !(k->params = calloc(np, sizeof *k->params))) ||
            (nr && !(k->regs = calloc(nr, sizeof *k->regs))) ||
            (nc && !(k->code = calloc(nc, sizeof *k->code))) ||
            (nl && !(k->lines = calloc(nl, sizeof *k->lines))))
            return oom(r);
        k->nparams = np, k->nregs = nr, k->ncode = nc, k->nlines = nl;
        for (uint32_t j = 0; j < np; j++, kc->pos += PREC) {
            k->params[j].name = get32(b + kc->pos);
            k->params[j].reg = get32(b + kc->pos + 4);
        }
        for (uint32_t j = 0; j < nr; j++, kc->pos += RREC) {
            bc_reg *g = &k->regs[j];
            p = b + kc->pos;
            g->name = get32(p);
            g->type.s = p[4];
            g->type.n = p[5];
            g->kind = p[6];
            g->space = p[7];
            g->init = p[8];
            g->flags = p[9];
            g->arg = get32(p + 12);
            if (get16(p + 10))
                return rerr(r, "kernel %u register %u at 0x%zx: reserved "
                               "bytes are not zero", i, j, kc->pos);
        }
        for (uint32_t j = 0; j < nc; j++, cc->pos += 4)
            k->code[j] = get32(b + cc->pos);
        for (uint32_t j = 0; j < nl; j++, lc->pos += LREC) {
            k->lines[j].pc = get32(b + lc->pos);
            k->lines[j].line = get32(b + lc->pos + 4);
        }
    }
    /* Every byte of a known section belongs to something. */
    const cur *all[3] = {kc, cc, lc};
    for (int s = 0; s < 3; s++)
        if (all[s]->pos != all[s]->end)
            return rerr(r, "section '%s': %zu bytes at 0x%zx after the last "
                           "kernel's data", all[s]->name,
                        all[s]->end - all[s]->pos, all[s]->pos);
    return 0;
}

/* The externs section (absent: none). Meaning is the verifier's. */
/* The byval section (absent: none). Meaning is the verifier's. */
static int read_byval(rd *r, bc_module *m, cur *c)
{
    const uint8_t *b = r->buf;
    if (c->end == c->pos)
        return 0;
    if (!left(c, 4))
        return rerr(r, "section 'byval' at 0x%zx is too short", c->pos);
    uint32_t n = get32(b + c->pos);
    c->pos += 4;
    if (c->end - c->pos != (uint64_t)n * BREC)
        return rerr(r, "section 'byval': %u records need %llu bytes, it "
                       "has %zu", n, (unsigned long long)n * BREC,
                    c->end - c->pos);
    for (uint32_t i = 0; i < n; i++, c->pos += BREC) {
        const uint8_t *p = b + c->pos;
        uint32_t k = get32(p), j = get32(p + 4);
        if (k >= m->nkernels || j >= m->kernels[k].nparams)
            return rerr(r, "byval record %u at 0x%zx: no parameter %u of "
                           "kernel %u", i, c->pos, j, k);
        bc_byval *v = &m->kernels[k].params[j].byval;
        if (v->size)
            return rerr(r, "byval record %u at 0x%zx: parameter %u of "
                           "kernel %u twice", i, c->pos, j, k);
        *v = (bc_byval){get32(p + 8), get32(p + 12), get32(p + 16),
                        get32(p + 20)};
        if (!v->size)
            return rerr(r, "byval record %u at 0x%zx: size 0", i, c->pos);
    }
    return 0;
}

bool bc_groupsize_ok(const uint32_t reqd[3])
{
    uint64_t items = 1;
    for (int d = 0; d < 3; d++)   /* each <= 2^32: no wrap in 64 bits */
        items *= reqd[d] <= VM_MAX_GROUP ? reqd[d] : VM_MAX_GROUP + 1;
    return items ? items <= VM_MAX_GROUP : !(reqd[0] | reqd[1] | reqd[2]);
}

/* Section 'groupsize': per kernel the local size it requires (three
 * u32), all 0 for none; otherwise at most VM_MAX_GROUP work-items. */
static int read_groupsize(rd *r, bc_module *m, cur *gc)
{
    if (gc->end == gc->pos)
        return 0;
    if (gc->end - gc->pos != (uint64_t)m->nkernels * GREC)
        return rerr(r, "section 'groupsize' at 0x%zx: %zu bytes for %u "
                       "kernels (need %d each)", gc->pos, gc->end - gc->pos,
                    m->nkernels, GREC);
    for (uint32_t i = 0; i < m->nkernels; i++) {
        uint32_t *q = m->kernels[i].reqd;
        for (int d = 0; d < 3; d++)
            q[d] = get32(r->buf + gc->pos + i * GREC + d * 4);
        if (!bc_groupsize_ok(q))
            return rerr(r, "section 'groupsize' at 0x%zx: kernel %u requires "
                           "%u x %u x %u work-items (1 to %u, or none)",
                        gc->pos + i * GREC, i, q[0], q[1], q[2],
                        VM_MAX_GROUP);
    }
    return 0;
}

static int read_externs(rd *r, bc_module *m, cur *xc)
{
    const uint8_t *b = r->buf;
    if (xc->end == xc->pos)
        return 0;
    if (!left(xc, 4))
        return rerr(r, "section 'externs' at 0x%zx is too short", xc->pos);
    uint32_t nx = get32(b + xc->pos);
    xc->pos += 4;
    if (!left(xc, (uint64_t)nx * XREC))
        return rerr(r, "section 'externs': %u externs need at least %llu "
                       "bytes, %zu left", nx, (unsigned long long)nx * XREC,
                    xc->end - xc->pos);
    if (nx && !(m->externs = calloc(nx, sizeof *m->externs)))
        return oom(r);
    m->nexterns = nx;
    for (uint32_t i = 0; i < nx; i++) {
        bc_extern *x = &m->externs[i];
        size_t at = xc->pos;
        if (!left(xc, XREC))
            return rerr(r, "extern %u at 0x%zx: record runs past the end of "
                           "section 'externs'", i, at);
        const uint8_t *p = b + at;
        x->name = get32(p);
        x->ret = (bc_ctype){p[4], p[5]};
        uint32_t np = get32(p + 8);
        xc->pos += XREC;
        if (get16(p + 6))
            return rerr(r, "extern %u at 0x%zx: reserved bytes are not zero",
                        i, at);
        if (!left(xc, (uint64_t)np * CREC))
            return rerr(r, "extern %u at 0x%zx: %u parameters run past the "
                           "end of section 'externs'", i, at, np);
        if (np && !(x->params = calloc(np, sizeof *x->params)))
            return oom(r);
        x->nparams = np;
        for (uint32_t j = 0; j < np; j++, xc->pos += CREC) {
            p = b + xc->pos;
            x->params[j] = (bc_ctype){p[0], p[1]};
            if (get16(p + 2))
                return rerr(r, "extern %u parameter %u at 0x%zx: reserved "
                               "bytes are not zero", i, j, xc->pos);
        }
    }
    if (xc->pos != xc->end)
        return rerr(r, "section 'externs': %zu bytes at 0x%zx after the "
                       "last extern", xc->end - xc->pos, xc->pos);
    return 0;
}

/* A section's name for messages: known ones by name, others in hex. */
static const char *sec_name(uint32_t id, char buf[16])
{
    const char *name = bc_section_name(id);
    if (name)
        return name;
    snprintf(buf, 16, "0x%x", id);
    return buf;
}

static int parse(rd *r, bc_module *m)
{
    const uint8_t *b = r->buf;
    size_t len = r->len;
    if (len < HDR)
        return rerr(r, "file too short for a header (%zu bytes, need %d)",
                    len, HDR);
    if (memcmp(b, BC_MAGIC, 8) != 0)
        return rerr(r, "bad magic (not a clvm bytecode file)");
    if (get16(b + 8) != BC_FORMAT_VERSION)
        return rerr(r, "unsupported format version %u (this clvm reads %d)",
                    get16(b + 8), BC_FORMAT_VERSION);
    if (get16(b + 10))
        return rerr(r, "unknown header flags 0x%x at offset 0xa",
                    get16(b + 10));
    uint32_t nsec = get32(b + 12);
    if (nsec > BC_MAX_SECTIONS)
        return rerr(r, "%u sections (at most %d)", nsec, BC_MAX_SECTIONS);
    size_t tab = HDR + (size_t)nsec * SECENT;
    if (tab > len)
        return rerr(r, "section table runs past end of file (%u entries "
                       "end at 0x%zx, file %zu bytes)", nsec, tab, len);
    cur sec[NSEC];
    for (int s = 0; s < NSEC; s++)
        sec[s] = (cur){0, 0, bc_section_name(sec_ids[s])};
    bool seen[NSEC] = {false};
    size_t end = tab;
    for (uint32_t i = 0; i < nsec; i++) {
        const uint8_t *e = b + HDR + i * SECENT;
        uint32_t id = get32(e), off = get32(e + 4), size = get32(e + 8);
        char nbuf[16], nbuf2[16];
        const char *name = sec_name(id, nbuf);
        if ((uint64_t)off + size > len)
            return rerr(r, "section '%s' runs past end of file (offset "
                           "0x%x, size %u, file %zu bytes)", name, off, size,
                        len);
        if (off < tab)
            return rerr(r, "section '%s' at 0x%x overlaps the section table "
                           "(which ends at 0x%zx)", name, off, tab);
        /* Overlapping sections would let one byte mean two things. */
        for (uint32_t j = 0; j < i; j++) {
            const uint8_t *f = b + HDR + j * SECENT;
            uint32_t o2 = get32(f + 4), s2 = get32(f + 8);
            if (off < (uint64_t)o2 + s2 && o2 < (uint64_t)off + size)
                return rerr(r, "section '%s' (0x%x, %u bytes) overlaps "
                               "section '%s' (0x%x, %u bytes)", name, off,
                            size, sec_name(get32(f), nbuf2), o2, s2);
        }
        if ((uint64_t)off + size > end)
            end = (size_t)off + size;
        if (id >= 1 && id <= NSEC) {
            uint32_t s = id - 1;   /* an optional id is no int: 0x8000... */
            if (seen[s])
                return rerr(r, "section '%s' appears twice", name);
            seen[s] = true;
            sec[s].pos = off;
            sec[s].end = (size_t)off + size;
        } else if (!(id & BC_SEC_OPTIONAL)) {
            return rerr(r, "unknown section id 0x%x (required to read the "
                           "file: from a newer clvm?)", id);
        }
    }
    if (end != len)
        return rerr(r, "%zu bytes after the last section (at 0x%zx)",
                    len - end, end);
    m->nstrings = (uint32_t)(sec[0].end - sec[0].pos);
    m->nconst = (uint32_t)(sec[1].end - sec[1].pos);
    uint8_t *strings = NULL;
    if (copy_out(r, sec[0].pos, m->nstrings, &strings))
        return -1;
    m->strings = (char *)strings;
    if (copy_out(r, sec[1].pos, m->nconst, &m->consts))
        return -1;
    return read_kernels(r, m, &sec[2], &sec[3], &sec[4]) ||
           read_externs(r, m, &sec[5]) || read_byval(r, m, &sec[6]) ||
                   read_groupsize(r, m, &sec[7]) ? -1 : 0;
}

int bc_read(const uint8_t *buf, size_t len, bc_module *m, char *err,
            size_t errlen)
{
    rd r = {buf, len, err, errlen};
    memset(m, 0, sizeof *m);
    if (errlen)
        err[0] = 0;
    if (parse(&r, m) || bc_verify(m, err, errlen)) {
        bc_free(m);
        return -1;
    }
    return 0;
}

/* ---- files ---- */

static int ferr(char *err, size_t errlen, const char *path, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));
static int ferr(char *err, size_t errlen, const char *path, const char *fmt,
                ...)
{
    if (errlen) {
        int w = snprintf(err, errlen, "%s: ", path);
        if (w >= 0 && (size_t)w < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + w, errlen - (size_t)w, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

int bc_load_file(const char *path, bc_module *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ferr(err, errlen, path, "%s", strerror(errno));
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            /* Offsets are 32-bit, so a bigger file cannot be valid. */
            if (cap > UINT32_MAX) {
                free(buf);
                fclose(f);
                return ferr(err, errlen, path, "file too large");
            }
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                return ferr(err, errlen, path, "out of memory");
            }
            buf = nb, cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return ferr(err, errlen, path, "read error");
    }
    char why[256];
    int rc = bc_read(buf, len, m, why, sizeof why);
    free(buf);
    return rc ? ferr(err, errlen, path, "%s", why) : 0;
}

int bc_save_file(const char *path, const bc_module *m, char *err,
                 size_t errlen)
{
    uint8_t *buf;
    size_t len;
    if (bc_write(m, &buf, &len))
        return ferr(err, errlen, path, "cannot serialise the module");
    FILE *f = fopen(path, "wb");
    if (!f) {
        int e = errno;
        free(buf);
        return ferr(err, errlen, path, "%s", strerror(e));
    }
    bool ok = fwrite(buf, 1, len, f) == len;
    int e = errno;
    ok = (fclose(f) == 0) && ok;
    free(buf);
    return ok ? 0 : ferr(err, errlen, path, "write error: %s", strerror(e));
}
