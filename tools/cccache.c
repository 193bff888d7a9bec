/* The compile cache of OpenCL C: one file per compilation under
 * $XDG_CACHE_HOME/clvm, named by a hash of its key and holding the whole
 * key, so that a hash collision is a miss, never another module. */
#include "tools/cccache.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/ccscan.h"
#include "tools/file.h"
#include "vm/bcfile.h"

/* 8 bytes, then (8 bytes each, little-endian) the key's length, the
 * messages' length and the FNV-1a 64 of everything after the header */
#define MAGIC "CLVMCC3\n"
enum { HDR = 32 };

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const uint8_t *)p)[i]) * 0x100000001b3u;
    return h;
}
#define FNV0 0xcbf29ce484222325u

typedef struct {
    char *p;
    size_t n, cap;
    bool bad;
} sbuf;

static void put(sbuf *b, const void *s, size_t n)
{
    if (b->bad)
        return;
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2 + 256;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->bad = true;
            return;
        }
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

/* "LABEL path size mtime inode\0": which file it is, in which version. */
static void put_file(sbuf *b, const char *label, const char *path)
{
    struct stat st;
    char line[PATH_MAX + 128];
    if (stat(path, &st))
        snprintf(line, sizeof line, "%s %s missing", label, path);
    else
        snprintf(line, sizeof line, "%s %s %lld %lld.%09ld %llu", label, path,
                 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                 st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
    put(b, line, strlen(line) + 1);
}

/* The file a command name runs (its PATH lookup, links resolved). */
static void put_tool(sbuf *b, const char *name)
{
    char buf[PATH_MAX], real[PATH_MAX];
    const char *path = getenv("PATH");
    if (strchr(name, '/')) {
        put_file(b, "tool", realpath(name, real) ? real : name);
        return;
    }
    for (const char *p = path ? path : ""; *p;) {
        size_t l = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)l, l ? p : ".", name);
        if (!access(buf, X_OK) && realpath(buf, real)) {
            put_file(b, "tool", real);
            return;
        }
        p += l + (p[l] == ':');
    }
    put_file(b, "tool", name);
}

/* The binary holding this code: clvm, or the OpenCL library. */
static void put_self(sbuf *b)
{
    Dl_info di;
    const char *self = "/proc/self/exe";
    if (dladdr((void *)put_self, &di) && di.dli_fname &&
        di.dli_fname[0] == '/' && strstr(di.dli_fname, ".so"))
        self = di.dli_fname;
    put_file(b, "self", self);
}

/* The cache folder, made if needed: false if there is none. */
static bool folder(char *dir, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && x[0] == '/')
        snprintf(dir, len, "%s", x);
    else if (h && h[0] == '/')
        snprintf(dir, len, "%s/.cache", h);
    else
        return false;
    if (mkdir(dir, 0700) && errno != EEXIST)
        return false;
    size_t l = strlen(dir);
    snprintf(dir + l, len - l, "/clvm");
    return !mkdir(dir, 0700) || errno == EEXIST;
}

/* A string of the key, its NUL included. */
static void put_str(sbuf *b, const char *s)
{
    put(b, s, strlen(s) + 1);
}

/* A count or length, then n bytes of s. */
static void put_bytes(sbuf *b, const char *what, const char *s, size_t n)
{
    char v[64];
    snprintf(v, sizeof v, "%s %zu", what, n);
    put_str(b, v);
    put(b, s, n);
}

bool ccc_key_make(ccc_key *k, const ccc_input *in)
{
    const char *off = getenv("CLVM_NO_CACHE");
    char dir[PATH_MAX], cwd[PATH_MAX], v[32];
    memset(k, 0, sizeof *k);
    if ((off && *off && strcmp(off, "0")) || !ccs_pinned(in) ||
        !folder(dir, sizeof dir - 32))
        return false;
    sbuf b = {0};
    snprintf(v, sizeof v, "bc %d", BC_FORMAT_VERSION);
    put_str(&b, v);
    put_str(&b, in->kind);
    put_self(&b);
    put_tool(&b, in->tools[0]);
    put_tool(&b, in->tools[1]);
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "?");
    put_str(&b, cwd);
    put_str(&b, in->name);
    snprintf(v, sizeof v, "opts %d", in->nopts);
    put_str(&b, v);
    for (int i = 0; i < in->nopts; i++)
        put_str(&b, in->opts[i]);
    put_bytes(&b, "src", in->src, in->n);
    snprintf(v, sizeof v, "headers %d", in->nh);
    put_str(&b, v);
    for (int i = 0; i < in->nh; i++) {
        put_str(&b, in->hdrs[i].name);
        put_bytes(&b, "header", in->hdrs[i].text, in->hdrs[i].len);
    }
    if (b.bad) {
        free(b.p);
        return false;
    }
    uint64_t h = fnv(FNV0, b.p, b.n);
    size_t pl = strlen(dir) + 24;
    k->path = malloc(pl);
    if (!k->path) {
        free(b.p);
        return false;
    }
    snprintf(k->path, pl, "%s/%016llx.cc", dir, (unsigned long long)h);
    k->key = b.p, k->keylen = b.n;
    return true;
}

void ccc_key_free(ccc_key *k)
{
    free(k->key);
    free(k->path);
    memset(k, 0, sizeof *k);
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

bool ccc_get(const ccc_key *k, uint8_t **entry, const char **diag,
             size_t *dlen, const uint8_t **bc, size_t *bclen)
{
    size_t n = 0;
    uint8_t *e = k->path ? file_read(k->path, &n) : NULL;
    *entry = NULL;
    if (!e)
        return false;
    uint64_t kl = n >= HDR ? get64(e + 8) : 0, dl = n >= HDR ? get64(e + 16) : 0;
    if (n < HDR || memcmp(e, MAGIC, 8) || kl != k->keylen ||
        dl > n - HDR - kl || memcmp(e + HDR, k->key, kl) ||
        get64(e + 24) != fnv(FNV0, e + HDR, n - HDR)) {
        free(e);
        return false;
    }
    *entry = e;
    *diag = (const char *)e + HDR + kl, *dlen = (size_t)dl;
    *bc = e + HDR + kl + dl, *bclen = n - HDR - kl - (size_t)dl;
    return true;
}

void ccc_put(const ccc_key *k, const char *diag, size_t dlen,
             const uint8_t *bc, size_t bclen)
{
    if (!k->path)
        return;
    size_t pl = strlen(k->path) + 16;
    char *tmp = malloc(pl);
    if (!tmp)
        return;
    snprintf(tmp, pl, "%s.XXXXXX", k->path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd), unlink(tmp);
        free(tmp);
        return;
    }
    uint8_t hdr[HDR];
    memcpy(hdr, MAGIC, 8);
    put64(hdr + 8, k->keylen);
    put64(hdr + 16, dlen);
    put64(hdr + 24, fnv(fnv(fnv(FNV0, k->key, k->keylen), diag, dlen), bc,
                        bclen));
    bool ok = fwrite(hdr, 1, HDR, f) == HDR &&
              fwrite(k->key, 1, k->keylen, f) == k->keylen &&
              fwrite(diag, 1, dlen, f) == dlen &&
              fwrite(bc, 1, bclen, f) == bclen;
    ok = !fclose(f) && ok;
    if (!ok || rename(tmp, k->path))
        unlink(tmp);
    free(tmp);
}
