#!/bin/sh
# The CTS's offline compiler for clvm (its interface:
# OpenCL-CTS/test_common/harness/cl_offline_compiler-interface.txt):
# --mode=binary compiles the OpenCL C source to clvm bytecode with
# `clvm cc`, the pipeline clBuildProgram runs, so that a suite run with
# `--compilation-mode binary --compilation-program tests/cts/offline.sh
# --compilation-cache-path DIR` fills DIR, and a later run with
# `--compilation-cache-mode force-read` needs no clang (the 16-core
# machine without one). CLVM names the clvm binary (default: build/clvm
# beside this folder).
here=$(cd "$(dirname "$0")" && pwd)
clvm=${CLVM:-$here/../../build/clvm}
mode='' src='' out=''
while [ $# -gt 0 ]; do
    case $1 in
    --mode=*) mode=${1#--mode=} ;;
    --source=*) src=${1#--source=} ;;
    --output=*) out=${1#--output=} ;;
    --cl-device-info=*) ;;
    --) shift; break ;;
    *) echo "offline.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
if [ "$mode" != binary ] || [ -z "$src" ] || [ -z "$out" ]; then
    echo "offline.sh: needs --mode=binary --source=FILE --output=FILE (got mode '$mode')" >&2
    exit 2
fi
exec "$clvm" cc "$src" -o "$out" "$@"
