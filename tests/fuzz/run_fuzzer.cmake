# One bounded fuzzing run, for ctest (tests/fuzz/CMakeLists.txt):
#   cmake -D FUZZER=fuzz_x -D SEEDS=corpus/x -D WORK=dir -D DICT=x.dict|"" -D SECONDS=60 -P run_fuzzer.cmake
# The fuzzer starts from a copy of the seed corpus in WORK/corpus, where it also adds what it finds,
# so the tree is left as it was; a crashing input is written to WORK/ and fails the test.
# The environment's WAVEBENCH_FUZZ_SECONDS overrides SECONDS. The mutations follow a fixed seed
# (WAVEBENCH_FUZZ_SEED, default 1), so that CI retraces the runs made before a commit rather than
# finding something new at random under a deadline; fuzz longer or with other seeds by hand.
if(DEFINED ENV{WAVEBENCH_FUZZ_SECONDS})
  set(SECONDS $ENV{WAVEBENCH_FUZZ_SECONDS})
endif()
set(SEED 1)
if(DEFINED ENV{WAVEBENCH_FUZZ_SEED})
  set(SEED $ENV{WAVEBENCH_FUZZ_SEED})
endif()
file(REMOVE_RECURSE ${WORK}) # what an earlier run found is not this one's
file(MAKE_DIRECTORY ${WORK}/corpus)
file(COPY ${SEEDS}/ DESTINATION ${WORK}/corpus)
set(args -seed=${SEED} -max_total_time=${SECONDS} -timeout=10 -print_final_stats=1 -artifact_prefix=${WORK}/)
if(DICT)
  list(APPEND args -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} ${args} ${WORK}/corpus RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${WORK}/crash-* ${WORK}/leak-* ${WORK}/timeout-* ${WORK}/oom-*)
  message(FATAL_ERROR "${FUZZER} failed (${rc}); the input: ${found}\n"
                      "Minimize it, fix the cause, add it to tests/fuzz/regressions/ (tests/fuzz/README.md).")
endif()
