# PyTorch memory snapshots: `devicescope inspect --json` on generated fixtures (every trace action, the 1.x
# form, protocols 0/2/4), on DeviceScope's own run/bench files, and on hostile pickles (exit 2, nothing run).
# The reader and model have gtests in tests/unit/snapshot (test_snapshot). Included from tests/CMakeLists.txt.
add_test(NAME snapshot_inspect
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/snapshot/check_inspect.py
                 $<TARGET_FILE:devicescope> ${CMAKE_BINARY_DIR}/snapshot-work)
set_tests_properties(snapshot_inspect PROPERTIES TIMEOUT 600)

# DeviceScope's own torch.cuda.memory._dump_snapshot files: PyTorch 2.x's keys and types, every trace action,
# owners in the frames, and `devicescope inspect` giving back memory_allocated() / memory_reserved().
add_test(NAME snapshot_memory_history
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/snapshot/check_memory_history.py
                 $<TARGET_FILE:devicescope> ${CMAKE_BINARY_DIR}/snapshot-history-work)
set_tests_properties(snapshot_memory_history PROPERTIES TIMEOUT 600)

# Hostile pickles through `devicescope inspect`: code-running __reduce__ (GLOBAL, STACK_GLOBAL), every
# prefix of a small snapshot, 100,000-deep nesting, huge declared lengths, missing memo indexes, an
# empty file, a torch.save zip: exit 2, one clear line, nothing run.
add_test(NAME snapshot_hostile
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/snapshot/check_hostile_pickles.py
                 $<TARGET_FILE:devicescope> ${CMAKE_BINARY_DIR}/snapshot-hostile-work)
set_tests_properties(snapshot_hostile PROPERTIES TIMEOUT 600)

# `devicescope diff A B`: two moments of one snapshot (figures replayed independently in Python), two
# moments of one recording (owners allocated, copies in between), and the refusals (exit 2, nothing run).
add_test(NAME snapshot_diff
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/snapshot/check_diff.py
                 $<TARGET_FILE:devicescope> ${CMAKE_BINARY_DIR}/snapshot-diff-work)
set_tests_properties(snapshot_diff PROPERTIES TIMEOUT 600)
