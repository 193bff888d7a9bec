/* The compile cache of OpenCL C modules (tools/cccache.c): under
 * $XDG_CACHE_HOME/clvm (default ~/.cache/clvm), keyed by the source's
 * name and bytes, the clang options, the toolchain binaries and clvm's
 * own code; CLVM_NO_CACHE=1 bypasses it. docs/opencl-c.md describes it. */
#ifndef CLVM_CCCACHE_H
#define CLVM_CCCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *key;            /* everything the module depends on, malloc'd */
    size_t keylen;
    char *path;           /* the entry's file, malloc'd */
} ccc_key;

/* The key of compiling `name`, whose bytes are src[0..n), with opts by the
 * tools (clang, llvm-spirv: names looked up on PATH). False (k empty)
 * when the cache is not used: bypassed, no cache folder, or a source with
 * #include (its headers are not in the key). */
bool ccc_key_make(ccc_key *k, const char *name, const char *src, size_t n,
                  char *const *opts, int nopts, const char *const tools[2]);
void ccc_key_free(ccc_key *k);

/* The entry of k: *entry (malloc'd, free it) holding the compiler's
 * messages diag[0..*dlen) and the module's bytes bc[0..*bclen) (still to
 * be verified: bc_read). False if there is none or it is not k's. */
bool ccc_get(const ccc_key *k, uint8_t **entry, const char **diag,
             size_t *dlen, const uint8_t **bc, size_t *bclen);
/* Stores an entry for k: written to a temporary file in the cache folder
 * and renamed over the entry, so that readers never see half of one and
 * concurrent writers leave a whole one. Failure is silent (a cache). */
void ccc_put(const ccc_key *k, const char *diag, size_t dlen,
             const uint8_t *bc, size_t bclen);

#endif
