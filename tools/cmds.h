/* The clvm subcommands. Each takes its own argv (argv[0] is the command
 * name) and returns the process exit status: 0 success, 1 failure (assembly
 * errors, kernel trap, failed conformance case), 2 usage or input error. */
#ifndef CLVM_CMDS_H
#define CLVM_CMDS_H

#define CLVM_VERSION "0.1.0"

/* X(name, function, one-line summary) */
#define CLVM_COMMANDS(X)                                                      \
    X(asm,     cmd_asm,     "assemble IR (.clasm) into bytecode (.bc)")       \
    X(cc,      cmd_cc,      "compile OpenCL C (.cl) into bytecode (.bc)")     \
    X(dis,     cmd_dis,     "print bytecode back as IR")                      \
    X(run,     cmd_run,     "run a kernel over an NDRange on real buffers")   \
    X(conform, cmd_conform, "run conformance vector files through the VM")   \
    X(repl,    cmd_repl,    "evaluate expressions and step through kernels") \
    X(exec,    cmd_exec,    "run a host program on clvm's OpenCL platform")

#define X(name, fn, summary) int fn(int argc, char **argv);
CLVM_COMMANDS(X)
#undef X

#endif
