# GUI checks: view-model tests without GL (test_view_state) and, when the app is built, screenshot
# tests that run devicescope under Xvfb and check the PNG and the view model it drew (out.png.json).
file(GLOB VIEW_STATE_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gui/view_state/*.cpp)
if(VIEW_STATE_TESTS AND TARGET ds_session)
  add_executable(test_view_state ${VIEW_STATE_TESTS})
  target_link_libraries(test_view_state PRIVATE ds_session GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_view_state PRIVATE DEVICESCOPE_ASSET_DIR="${PROJECT_SOURCE_DIR}/assets")
  gtest_discover_tests(test_view_state DISCOVERY_TIMEOUT 60)
endif()

# The app's code session (app/session/python_script_session.cpp, real CPython) through the Session interface.
if(TARGET ds_python_session)
  add_executable(test_gui_session ${CMAKE_CURRENT_SOURCE_DIR}/gui/session/test_python_script_session.cpp)
  target_link_libraries(test_gui_session PRIVATE ds_python_session GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_gui_session PRIVATE DEVICESCOPE_ASSET_DIR="${PROJECT_SOURCE_DIR}/assets")
  gtest_discover_tests(test_gui_session DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "gui;python")
endif()

# The frame benchmark (tests/bench/gui): the desktop app over a synthetic picture of any size, timed.
if(TARGET ds_gui)
  find_package(CLI11 CONFIG REQUIRED)
  file(GLOB FRAME_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/bench/gui/*.cpp)
  add_executable(bench_gui_frames ${FRAME_BENCH_SOURCES})
  target_link_libraries(bench_gui_frames PRIVATE ds_gui CLI11::CLI11)
endif()

find_program(XVFB_RUN xvfb-run)
if(DEVICESCOPE_GUI AND TARGET devicescope AND XVFB_RUN)
  set(GUI_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/gui)
  set(GUI_OUT ${CMAKE_CURRENT_BINARY_DIR}/gui_screenshots)
  file(MAKE_DIRECTORY ${GUI_OUT})
  # name | expectation | extra arguments
  function(gui_screenshot_test name expect)
    add_test(NAME gui_screenshot_${name}
             COMMAND ${Python_EXECUTABLE} ${GUI_TEST_DIR}/check_screenshot.py --devicescope $<TARGET_FILE:devicescope>
                     --out ${GUI_OUT}/${name}.png --expect ${GUI_TEST_DIR}/expect/${expect}.json ${ARGN})
    set_tests_properties(gui_screenshot_${name} PROPERTIES TIMEOUT 300 LABELS gui)
  endfunction()
  # The frame benchmark still runs (a few frames of a small picture; its timings are not checked).
  add_test(NAME bench_gui_frames_runs COMMAND bench_gui_frames --frames 3 --storages 2000 --transfers 20000)
  set_tests_properties(bench_gui_frames_runs PROPERTIES TIMEOUT 300 LABELS gui
                       PASS_REGULAR_EXPRESSION "frame time: median")
  gui_screenshot_test(starter starter)                      # first start: the starter stepped to its marker
  gui_screenshot_test(starter_full starter_full --script ${PROJECT_SOURCE_DIR}/assets/starter.py)
  gui_screenshot_test(move_model move_model --script ${GUI_TEST_DIR}/scripts/move_model.py --size 1280x800)
  gui_screenshot_test(move_model_step3 move_model_step3 --script ${GUI_TEST_DIR}/scripts/move_model.py --steps 4)
  gui_screenshot_test(mixed_devices mixed_devices --script ${GUI_TEST_DIR}/scripts/mixed_devices.py)
  # A recording made on a GPU machine, opened in the Transfers view (bandwidth tab).
  gui_screenshot_test(recording recording --extra=--open-trace=${GUI_TEST_DIR}/data/h100_transfers.csv --extra=--show=bandwidth)
  # A PyTorch memory snapshot (a generated 2.x pickle): a pane per device and the Memory over time window.
  gui_screenshot_test(pytorch_snapshot pytorch_snapshot --pytorch-snapshot v2_small.pickle)
  # Issue 24 item 7: the file view (no editor or console, Owners table) and the trace's marks on Memory over time.
  gui_screenshot_test(pytorch_snapshot_marks pytorch_snapshot_marks --pytorch-snapshot v2_newer.pickle)
  # A DeviceScope snapshot names its blocks' roles: Memory over time stacks by category (issue 24), or by
  # source line when asked; 1280x720 as on a projector.
  gui_screenshot_test(snapshot_by_category snapshot_by_category --history-snapshot --size 1280x720)
  # Lesson 019's What fits where (issue 25): Llama 1B, full sharding over the two simulated 16 GiB GPUs, runs out
  # of memory without activation checkpointing; cuda:0's bar by category, PyTorch's message; 1280x720 and 1600x1000.
  gui_screenshot_test(fits_view fits_view --extra=--show=fits --size 1280x720)
  gui_screenshot_test(fits_view_large fits_view --extra=--show=fits)
  # Windows copied from their cached images (app/render/layer_cache.h) look exactly as drawn: an opened
  # --large-real snapshot at 1600x1000 and 1280x720, with and without DEVICESCOPE_NO_LAYER_CACHE=1, in a
  # screenshot's image and in the window's own buffer (bench_gui_frames --check-same-pixels).
  add_test(NAME gui_layer_cache_same_pixels
           COMMAND ${Python_EXECUTABLE} ${GUI_TEST_DIR}/check_layer_cache.py --devicescope $<TARGET_FILE:devicescope>
                   --bench $<TARGET_FILE:bench_gui_frames> --out-dir ${GUI_OUT}/layer_cache)
  set_tests_properties(gui_layer_cache_same_pixels PROPERTIES TIMEOUT 300 LABELS gui)
  gui_screenshot_test(snapshot_by_source_line snapshot_by_source_line --history-snapshot --extra=--show=by-source-line)
  # 80,000 copies that start at one instant: one folded timeline item (issue 14: 80,000 bars, 19 s a frame).
  gui_screenshot_test(recording_same_instant recording_same_instant --same-instant-recording 80000 --extra=--mouse=800,700)
  # A recording still loading (the loader held before it reads): progress strip and Cancel over the live view.
  gui_screenshot_test(recording_loading recording_loading --extra=--open-trace=${GUI_TEST_DIR}/data/h100_transfers.csv
                      --extra=--hold-loading)
  # A file that is not a recording: the loader's message in a modal in front of the views, exit 2.
  gui_screenshot_test(recording_refused recording_refused --extra=--open-trace=${GUI_TEST_DIR}/data/bench/truncated.json)
  # The Bench window: a small sweep run to completion; a recorded run overlaid; a corrupt file's error.
  gui_screenshot_test(bench_view bench_view --bench-sizes 4KiB:1MiB)
  gui_screenshot_test(bench_overlay bench_overlay --bench-sizes 4KiB:1MiB --bench-open ${GUI_TEST_DIR}/data/bench/sim_pcie5.json)
  gui_screenshot_test(bench_corrupt bench_corrupt --bench-open ${GUI_TEST_DIR}/data/bench/truncated.json)
  # Workshop lessons (lesson_view.cpp): one page of each seed lesson, run through the real Python session.
  gui_screenshot_test(lesson_000 lesson_000 --lesson 000 --lesson-step 2 --lesson-answer 1 --presenter)
  gui_screenshot_test(lesson_001 lesson_001 --lesson 001 --lesson-step 2)
  gui_screenshot_test(lesson_002 lesson_002 --lesson 002 --lesson-step 99)
  gui_screenshot_test(lesson_003 lesson_003 --lesson 003 --lesson-step 3 --lesson-answer 2)
  gui_screenshot_test(lesson_004 lesson_004 --lesson 004 --lesson-step 8 --lesson-answer 1 --presenter)
  gui_screenshot_test(lesson_browser lesson_browser --presenter)  # the list of lessons, presenter size
  # The names graph (issue 17): views, .data and .detach() of one storage meet in one storage box; a busy
  # script (33 names, a transfer record, a list of 12 tensors) fits the pane at a legible zoom.
  gui_screenshot_test(lesson_013 lesson_013 --lesson 013 --lesson-step 3)
  gui_screenshot_test(busy_names busy_names --script ${GUI_TEST_DIR}/scripts/busy_names.py)
  # Issue 24: the names graph of real programs folds instead of shrinking (text >= 14 px presenting, >= 12 px
  # otherwise) and cuts nothing off: a 44-object training step on a projector, a 300-object program.
  gui_screenshot_test(names_train_presenter names_train_presenter --script ${GUI_TEST_DIR}/scripts/train_small.py --presenter --size 1280x720)
  gui_screenshot_test(names_many names_many --script ${GUI_TEST_DIR}/scripts/many_objects.py)
  # Presenter mode on a 1280x720 projector (issue 17): every pane that holds memory draws labelled blocks
  # at least a label wide, no pane header is cut, the transfers strip shows the copies, lesson code wraps.
  foreach(case "000;3;1" "003;4;0" "015;3;0" "016;1;2" "018;4;1" "019;7;1")
    list(GET case 0 lesson)
    list(GET case 1 step)
    list(GET case 2 answer)
    gui_screenshot_test(presenter_${lesson} presenter_${lesson} --lesson ${lesson} --lesson-step ${step} --lesson-answer ${answer}
                        --presenter --size 1280x720)
  endforeach()
  # Issue 17 items 2 and 3 in the Transfers timeline: lesson 016's copy in flight (striped to its modelled end,
  # the early read marked, IN FLIGHT on h) and folded after synchronize(); lesson 018's pinning drawn as a
  # measured break that the copy out of pinned_src starts after, with 5.6 vs 2.7 ms on the modelled scale.
  gui_screenshot_test(lesson_016_early lesson_016_early --lesson 016 --lesson-step 1 --lesson-answer 2 --extra=--show=timeline)
  gui_screenshot_test(lesson_016_synced lesson_016_synced --lesson 016 --lesson-step 2 --lesson-answer 2 --extra=--show=timeline)
  gui_screenshot_test(lesson_018_timeline lesson_018_timeline --lesson 018 --lesson-step 4 --lesson-answer 1 --extra=--show=timeline)
  # --presenter --script X presents the script (the editor), not the lesson list.
  gui_screenshot_test(presenter_script presenter_script --script ${GUI_TEST_DIR}/scripts/move_model.py --presenter --size 1280x720)
  # Help > Keyboard shortcuts floats in front of the tiled views, with the presenter keys listed.
  gui_screenshot_test(shortcuts shortcuts --extra=--show=shortcuts)
  # devicescope finds xvfb-run by itself for --screenshot when there is no display.
  gui_screenshot_test(auto_xvfb starter --no-xvfb)
  add_test(NAME gui_no_display COMMAND sh ${GUI_TEST_DIR}/check_no_display.sh $<TARGET_FILE:devicescope>)
  set_tests_properties(gui_no_display PROPERTIES TIMEOUT 60 LABELS gui)
endif()
