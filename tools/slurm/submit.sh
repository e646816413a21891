#!/bin/bash
# Runs a wavebench suite as a Slurm job array, one shard per array task (one GPU each), and a
# merge job that starts once every task has ended, however it ended (afterany), and joins the
# shards into OUT/merged.json, recorded in the history of WAVEBENCH_DB. See tools/slurm/README.md.
set -eu

usage() {
    cat >&2 <<'EOF'
usage: submit.sh SUITE [options] [-- ARGS for wavebench run]
  --shards N          split the suite into N shards, one array task each (default 4)
  --platform P        wavebench's platform (cpu, nvidia, amd); cpu asks for no GPU
  --out DIR           where the shards, merged.json and logs/ go, on a file system every node
                      sees (default ./wavebench-slurm/SUITENAME-YYYYmmdd-HHMMSS)
  --wavebench BIN     the wavebench binary, seen by every node (default $WAVEBENCH, else the
                      one on PATH, else this checkout's build/bin/wavebench)
  --partition P       partition of both jobs (default: the cluster's default)
  --time T            time limit of each shard (default 02:00:00; the merge gets 00:30:00)
  --gres SPEC         what each shard asks for (default gpu:1; none on the cpu platform;
                      'none' asks for nothing)
  --cpus-per-task N   CPUs of each shard (default: the cluster's default)
  --sbatch ARG        one more sbatch option for both jobs (repeatable), e.g. --sbatch=--account=x
  --no-history        the merge does not record the run in the history
  --dry-run           print the sbatch commands, submit nothing
EOF
    exit 2
}

die() { echo "submit.sh: $*" >&2; exit 2; }

# An absolute path of an existing file or folder, without resolving links.
absolute() {
    local dir base
    if [ -d "$1" ]; then (cd -- "$1" && pwd); return; fi
    dir=$(dirname -- "$1") base=$(basename -- "$1")
    dir=$(cd -- "$dir" && pwd) || return 1
    printf '%s/%s\n' "${dir%/}" "$base"
}

here=$(cd -- "$(dirname -- "$0")" && pwd)
suite='' shards=4 platform='' out='' wavebench=${WAVEBENCH:-} partition='' time=02:00:00 gres=default cpus=''
dry=0
extra_sbatch=() merge_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --shards | --platform | --out | --wavebench | --partition | --time | --gres | --cpus-per-task | --sbatch)
            [ $# -ge 2 ] || die "$1 wants a value"
            opt=$1 val=$2
            shift 2 ;;
        --*=*) opt=${1%%=*} val=${1#*=}; shift
            case "$opt" in
                --shards | --platform | --out | --wavebench | --partition | --time | --gres | --cpus-per-task | --sbatch) ;;
                *) die "unknown option $opt" ;;
            esac ;;
        --no-history) merge_args+=(--no-history); shift; continue ;;
        --dry-run) dry=1; shift; continue ;;
        -h | --help) usage ;;
        --) shift; break ;;
        -*) die "unknown option $1 (options for wavebench run go after --)" ;;
        *) [ -z "$suite" ] || die "one suite at a time ($suite, $1)"; suite=$1; shift; continue ;;
    esac
    case "$opt" in
        --shards) shards=$val ;;
        --platform) platform=$val ;;
        --out) out=$val ;;
        --wavebench) wavebench=$val ;;
        --partition) partition=$val ;;
        --time) time=$val ;;
        --gres) gres=$val ;;
        --cpus-per-task) cpus=$val ;;
        --sbatch) extra_sbatch+=("$val") ;;
    esac
done
run_args=("$@")

[ -n "$suite" ] || usage
[ -f "$suite" ] || die "no suite file $suite"
suite=$(absolute "$suite")
case "$shards" in '' | 0* | *[!0-9]*) die "--shards wants a number from 1, not '$shards'" ;; esac

if [ -z "$wavebench" ]; then
    wavebench=$(command -v wavebench || true)
    [ -n "$wavebench" ] || wavebench="$here/../../build/bin/wavebench"
fi
[ -x "$wavebench" ] || die "no wavebench binary at $wavebench (give --wavebench or set WAVEBENCH)"
wavebench=$(absolute "$wavebench")

if [ -z "$out" ]; then
    name=$(basename -- "$suite" .toml)
    out="wavebench-slurm/$name-$(date +%Y%m%d-%H%M%S)"
fi
case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
case "$out" in *%*) die "--out $out: Slurm reads % in the log paths made from it (%j, %a...): name a folder without %" ;; esac
# Slurm does not make the folders of --output: the logs folder must exist before the jobs start.
if [ "$dry" = 0 ]; then mkdir -p -- "$out/logs"; fi

if [ "$gres" = default ]; then
    if [ "$platform" = cpu ]; then gres=none; else gres=gpu:1; fi
fi

# ${a[@]+"${a[@]}"}: an empty array under set -u in the bash of older clusters (before 4.4).
common=(--chdir="$out")
if [ -n "$partition" ]; then common+=(--partition="$partition"); fi
common+=(${extra_sbatch[@]+"${extra_sbatch[@]}"})

# --signal: SIGTERM to the batch script 5 minutes before the time limit, which it passes on to
# wavebench, so a shard that runs out of time still leaves what it measured.
array=(--parsable --job-name="wavebench-shards" --array="1-$shards" --ntasks=1 --time="$time"
       --signal=B:TERM@300
       --output="$out/logs/shard-%a-of-$shards.out" "${common[@]}")
if [ "$gres" != none ]; then array+=(--gres="$gres"); fi
if [ -n "$cpus" ]; then array+=(--cpus-per-task="$cpus"); fi

shard_args=(--wavebench "$wavebench" --shards "$shards" --out "$out" "$suite" --)
if [ -n "$platform" ]; then shard_args+=(--platform "$platform"); fi
shard_args+=(${run_args[@]+"${run_args[@]}"})

merge=(--parsable --job-name="wavebench-merge" --ntasks=1 --time=00:30:00
       --output="$out/logs/merge.out" "${common[@]}")
merge_script_args=(--merge --wavebench "$wavebench" --shards "$shards" --out "$out" --
                   ${merge_args[@]+"${merge_args[@]}"})

if [ "$dry" = 1 ]; then
    printf '%q ' sbatch "${array[@]}" "$here/wavebench-array.sh" "${shard_args[@]}"; echo
    printf '%q ' sbatch "${merge[@]}" --dependency=afterany:ARRAY_JOB_ID "$here/wavebench-array.sh" \
        "${merge_script_args[@]}"; echo
    exit 0
fi

array_id=$(sbatch "${array[@]}" "$here/wavebench-array.sh" "${shard_args[@]}")
array_id=${array_id%%;*}
case "$array_id" in '' | *[!0-9]*) die "sbatch gave no job id for the array: '$array_id'" ;; esac
if ! merge_id=$(sbatch "${merge[@]}" --dependency="afterany:$array_id" "$here/wavebench-array.sh" \
                    "${merge_script_args[@]}"); then
    echo "submit.sh: the merge job was refused; the array $array_id runs on (scancel $array_id to stop it)" >&2
    exit 1
fi
merge_id=${merge_id%%;*}

echo "array job: $array_id ($shards shards of $suite)"
echo "merge job: $merge_id (after every shard)"
echo "results:   $out/merged.json (logs in $out/logs)"
