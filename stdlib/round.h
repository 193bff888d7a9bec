/* IEEE-754 rounding modes as OpenCL C names them. */
#ifndef CLVM_ROUND_H
#define CLVM_ROUND_H

#define RND_MODES(X) X(RTE, rte) X(RTZ, rtz) X(RTP, rtp) X(RTN, rtn)

enum rnd {
#define X(E, n) RND_##E,
    RND_MODES(X)
#undef X
    RND_NMODE
};

const char *rnd_name(enum rnd r); /* "rte", ... */

#endif
