/* The compile cache of OpenCL C (tools/cccache.c): under
 * $XDG_CACHE_HOME/clvm (default ~/.cache/clvm), keyed by the source's
 * name and bytes, its embedded headers' names and bytes, the clang
 * options, the toolchain binaries and clvm's own code; CLVM_NO_CACHE=1
 * bypasses it. docs/opencl-c.md describes it. */
#ifndef CLVM_CCCACHE_H
#define CLVM_CCCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A header clCompileProgram embeds: its include name and its text. */
typedef struct {
    const char *name;
    const char *text;
    size_t len;
} ccc_header;

/* One compilation: what it makes (kind: "module", "object", "link"...),
 * the source (its name and bytes), the embedded headers (in a folder
 * clang searches before any other), the clang options and the tools'
 * command names (looked up on PATH); opaque: src is not OpenCL C (a
 * link's objects), so nothing in it can read another file. */
typedef struct {
    const char *kind, *name, *src;
    size_t n;
    const ccc_header *hdrs;
    int nh;
    char *const *opts;
    int nopts;
    const char *tools[2];
    bool opaque;
} ccc_input;

typedef struct {
    char *key;            /* everything the result depends on, malloc'd */
    size_t keylen;
    char *path;           /* the entry's file, malloc'd */
} ccc_key;

/* The key of compiling in. False (k empty) when the cache is not used:
 * bypassed, no cache folder, or a result the key cannot pin down (an
 * #include of anything but an embedded header, an option that reads a
 * file, __DATE__ or __TIME__). */
bool ccc_key_make(ccc_key *k, const ccc_input *in);
void ccc_key_free(ccc_key *k);

/* The entry of k: *entry (malloc'd, free it) holding the compiler's
 * messages diag[0..*dlen) and the result's bytes bc[0..*bclen) (still to
 * be checked: bc_read for a module). False if there is none or it is not
 * k's. */
bool ccc_get(const ccc_key *k, uint8_t **entry, const char **diag,
             size_t *dlen, const uint8_t **bc, size_t *bclen);
/* Stores an entry for k: written to a temporary file in the cache folder
 * and renamed over the entry, so that readers never see half of one and
 * concurrent writers leave a whole one. Failure is silent (a cache). */
void ccc_put(const ccc_key *k, const char *diag, size_t dlen,
             const uint8_t *bc, size_t bclen);

#endif
