#!/bin/bash
# The batch script of tools/slurm/submit.sh: one task of the job array runs one shard of a suite;
# the merge job (--merge) joins the shards once the array is over. submit.sh passes everything as
# arguments (absolute paths), so the copy of this script that Slurm keeps in its spool runs
# wherever the job lands.
#
#   wavebench-array.sh --wavebench BIN --shards N --out DIR SUITE [-- ARGS for wavebench run]
#       (in an array task: shard $SLURM_ARRAY_TASK_ID of N into DIR/shard-I-of-N.json)
#   wavebench-array.sh --merge --wavebench BIN --shards N --out DIR [-- ARGS for wavebench merge]
#       (DIR/shard-*-of-N.json into DIR/merged.json, recorded in the history of WAVEBENCH_DB)
#
# Defaults for a direct `sbatch`; submit.sh's options come first on sbatch's command line and
# override them.
#SBATCH --job-name=wavebench
#SBATCH --ntasks=1
#SBATCH --time=02:00:00
set -eu

usage() {
    echo "usage: $0 [--merge] --wavebench BIN --shards N --out DIR [SUITE] [-- ARGS]" >&2
    exit 2
}

merge=0 wavebench='' shards='' out='' suite=''
while [ $# -gt 0 ]; do
    case "$1" in
        --merge) merge=1; shift ;;
        --wavebench) [ $# -ge 2 ] || usage; wavebench=$2; shift 2 ;;
        --shards) [ $# -ge 2 ] || usage; shards=$2; shift 2 ;;
        --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --) shift; break ;;
        -*) echo "$0: unknown option $1" >&2; usage ;;
        *) [ -z "$suite" ] || usage; suite=$1; shift ;;
    esac
done
if [ -z "$wavebench" ] || [ -z "$shards" ] || [ -z "$out" ]; then usage; fi
case "$shards" in '' | *[!0-9]*) echo "$0: --shards wants a number, not '$shards'" >&2; exit 2 ;; esac
if [ ! -x "$wavebench" ]; then
    echo "$0: $wavebench is not an executable on $(hostname): the wavebench binary must be on a" \
         "file system every node sees" >&2
    exit 2
fi
mkdir -p -- "$out"

if [ "$merge" = 1 ]; then
    # Whatever the array tasks left: a shard that failed to start or was killed left no file,
    # which `wavebench merge` names (exit 2); a shard that ran with failures or was stopped by
    # its time limit left its results, which merge as failures or as an incomplete run (exit 1).
    # A shard killed outright (SIGKILL after Slurm's KillWait) left its journal, which wavebench
    # reads as the shard's results, incomplete; one whose batch script was killed with it left its
    # files under their running names.
    files=()
    missing=
    for ((i = 1; i <= shards; i++)); do
        f="$out/shard-$i-of-$shards.json"
        running="$out/.shard-$i-of-$shards.json.running"
        for candidate in "$f" "$f.journal" "$running.journal" "$running"; do
            [ -f "$candidate" ] && break
        done
        if [ -f "$candidate" ]; then
            files+=("$candidate")
        else
            missing="$missing $i"
            echo "shard $i of $shards left no results: see $out/logs/shard-$i-of-$shards.out" >&2
        fi
    done
    if [ ${#files[@]} -eq 0 ]; then
        echo "no shard of $shards left results in $out: nothing to merge" >&2
        exit 2
    fi
    echo "merging ${#files[@]} of $shards shards into $out/merged.json${missing:+ (missing:$missing)}"
    status=0
    "$wavebench" merge "${files[@]}" -o "$out/merged.json" "$@" || status=$?
    echo "wavebench merge exited $status"
    exit "$status"
fi

[ -n "$suite" ] || usage
index=${SLURM_ARRAY_TASK_ID:-}
case "$index" in
    '' | *[!0-9]*) echo "$0: not in a job array task (SLURM_ARRAY_TASK_ID is '$index'): submit with --array=1-$shards" >&2
                   exit 2 ;;
esac
final="$out/shard-$index-of-$shards.json"
# Written under a name the merge does not pick up, renamed once wavebench has finished: the merge
# sees whole runs only (wavebench rewrites its results file as it goes).
running="$out/.shard-$index-of-$shards.json.running"
rm -f -- "$final" "$final.journal" "$running" "$running.journal"

# Slurm's time limit (or scancel) sends SIGTERM to every process of the job; submit.sh also asks
# for one to this script a while before the limit (--signal=B:TERM@...). wavebench stops after
# the configuration it is measuring and writes what it has, marked incomplete; this script passes
# the signal on, waits for wavebench and keeps those results.
echo "shard $index of $shards of $suite on $(hostname)${CUDA_VISIBLE_DEVICES:+ (CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES)}${ROCR_VISIBLE_DEVICES:+ (ROCR_VISIBLE_DEVICES=$ROCR_VISIBLE_DEVICES)}"
# The trap is set before wavebench starts: a SIGTERM in between must not end this script before
# the rename (it is passed on once there is a wavebench to pass it to).
child=
trap 'echo "$0: SIGTERM: wavebench stops after its current configuration" >&2; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true' TERM
"$wavebench" run "$suite" --shard "$index/$shards" --out "$running" "$@" &
child=$!
status=0
wait "$child" || status=$?
while kill -0 "$child" 2>/dev/null; do # the wait was cut short by the signal
    status=0
    wait "$child" || status=$?
done
echo "wavebench run exited $status"
if [ -f "$running.journal" ]; then # killed outright: its journal holds every result it measured
    mv -f -- "$running.journal" "$final.journal"
    rm -f -- "$running"
    echo "results (a journal: wavebench was killed): $final.journal"
elif [ -f "$running" ]; then
    mv -f -- "$running" "$final"
    echo "results: $final"
fi
exit "$status"
