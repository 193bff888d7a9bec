/* Worker threads kept from one vm_run to the next (private to vm/). */
#ifndef CLVM_VM_POOL_H
#define CLVM_VM_POOL_H

/* A spinning thread's pause (x86: PAUSE, which spares the sibling
 * hyperthread and the memory bus). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VM_PAUSE() __builtin_ia32_pause()
#else
#define VM_PAUSE() ((void)0)
#endif
/* Orders the non-temporal stores before it (vm_stream) with the stores
 * after it, so that whoever learns this thread is done sees them. */
#if defined(__GNUC__) && defined(__SSE2__)
#define VM_SFENCE() __builtin_ia32_sfence()
#else
#define VM_SFENCE() ((void)0)
#endif

/* Calls fn(arg, 0) on the calling thread and fn(arg, i), 0 < i < n, on
 * up to n - 1 threads of the pool, each i once, while the caller's call
 * runs: a helper that wakes after it returned is not called at all. Returns
 * once every call that started has returned. So fn must share its work
 * out as it goes (each call taking what is left), never count on a given
 * i being called. Threads are started when first needed and kept (a
 * thread that cannot start leaves its share to the others); several
 * callers at a time share them. */
void vm_pool_run(void (*fn)(void *arg, unsigned i), void *arg, unsigned n);

/* The CPUs online, asked once: sysconf reads a file in /sys each time,
 * three system calls a launch for a host program's tiny kernels. */
unsigned vm_cores(void);

/* Starts the threads a vm_pool_run of n would use now, ahead of it, and
 * returns once they poll for it. */
void vm_pool_start(unsigned n);

#endif
