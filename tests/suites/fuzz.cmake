# Fuzz tests: the libFuzzer targets in tests/fuzz (device strings, trace JSON and CSV, bench JSON, lesson files,
# PyTorch snapshot pickles) are a project of their own built with clang (libFuzzer needs it; the main build uses g++), then each
# runs a fixed number of inputs from a fixed seed over its checked-in corpus (tests/fuzz/corpus/<target>).
# Longer runs by hand: build/fuzz/fuzz_<target> -max_total_time=600 /tmp/corpus tests/fuzz/corpus/<target>
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
option(DEVICESCOPE_FUZZ "Build the libFuzzer targets (clang) and run them briefly in ctest" ON)
if(NOT DEVICESCOPE_FUZZ)
  return()
endif()
find_program(DS_CLANGXX NAMES clang++ clang++-14)
set(DS_FUZZ_RUNTIME "")
if(DS_CLANGXX)
  execute_process(COMMAND ${DS_CLANGXX} -print-file-name=libclang_rt.fuzzer-x86_64.a
                  OUTPUT_VARIABLE DS_FUZZ_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT DS_CLANGXX OR NOT IS_ABSOLUTE "${DS_FUZZ_RUNTIME}" OR NOT EXISTS "${DS_FUZZ_RUNTIME}")
  message(STATUS "DeviceScope: clang++ with libFuzzer (clang, libclang-rt-14-dev) not found; no fuzz tests")
  return()
endif()

include(ExternalProject)
set(DS_FUZZ_DIR ${CMAKE_BINARY_DIR}/fuzz)
ExternalProject_Add(ds_fuzz
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz
  BINARY_DIR ${DS_FUZZ_DIR}
  CMAKE_ARGS -DCMAKE_CXX_COMPILER=${DS_CLANGXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON)  # its own make decides what is out of date (engine sources included)

# Inputs per target: enough to pass every seed and mutate around it (about a minute for all on 2 cores).
set(DS_FUZZ_RUNS device_parse=20000 transfers_csv=20000 chrome_trace=20000 sweep_json=20000 lesson_parser=10000
                 pytorch_snapshot=20000)
foreach(entry ${DS_FUZZ_RUNS})
  string(REPLACE "=" ";" pair ${entry})
  list(GET pair 0 target)
  list(GET pair 1 runs)
  add_test(NAME fuzz_${target}
           COMMAND ${CMAKE_COMMAND} -DBIN=${DS_FUZZ_DIR}/fuzz_${target}
                   -DCORPUS=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target}
                   -DWORK=${CMAKE_BINARY_DIR}/fuzz-work/${target} -DRUNS=${runs}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzz.cmake)
  # The lesson target embeds CPython, whose interpreter-lifetime allocations LeakSanitizer would report;
  # the C++ targets keep leak checking (libFuzzer reports a leaking input as a finding).
  set(leaks 1)
  if(target STREQUAL "lesson_parser")
    set(leaks 0)
  endif()
  set_tests_properties(fuzz_${target} PROPERTIES TIMEOUT 600 LABELS "fuzz"
                       ENVIRONMENT "ASAN_OPTIONS=detect_leaks=${leaks};UBSAN_OPTIONS=print_stacktrace=1")
endforeach()

# Every prefix of a real export (a file cut by a crash or a full disk) is refused, never half-read.
add_test(NAME trace_truncation
         COMMAND ${DS_FUZZ_DIR}/trace_truncation ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/chrome_trace/module_move.json
                 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/transfers_csv/module.csv)
set_tests_properties(trace_truncation PROPERTIES TIMEOUT 300 LABELS "fuzz")
