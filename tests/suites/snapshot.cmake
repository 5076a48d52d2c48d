# PyTorch memory snapshots: `devicescope inspect --json` on generated fixtures (every trace action, the 1.x
# form, protocols 0/2/4), on DeviceScope's own run/bench files, and on hostile pickles (exit 2, nothing run).
# The reader and model have gtests in tests/unit/snapshot (test_snapshot). Included from tests/CMakeLists.txt.
add_test(NAME snapshot_inspect
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/snapshot/check_inspect.py
                 $<TARGET_FILE:devicescope> ${CMAKE_BINARY_DIR}/snapshot-work)
set_tests_properties(snapshot_inspect PROPERTIES TIMEOUT 600)
