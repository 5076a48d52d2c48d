# `devicescope record` over Debian's real CPU-only PyTorch 1.13 (tests/record/check_record.py): a small training
# loop's owners, roles, byte totals and copies through `inspect --json` and the file; a script that raises; an
# interpreter without torch; a torchrun rank; SIGINT passed on; a corpus of everyday training scripts. Then the app
# opens the recording (screenshot).
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET devicescope)
  set(DS_RECORD_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_RECORD_PYTHON})
    set(DS_RECORD_PYTHON ${Python_EXECUTABLE})
  endif()
  set(DS_RECORD_WORK ${CMAKE_CURRENT_BINARY_DIR}/record)
  foreach(case train raises no_torch rank sigint argv)
    add_test(NAME record_${case}
             COMMAND ${DS_RECORD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/record/check_record.py
                     --devicescope $<TARGET_FILE:devicescope> --python ${DS_RECORD_PYTHON} --work ${DS_RECORD_WORK} ${case})
    set_tests_properties(record_${case} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "record;python")
  endforeach()
  set_tests_properties(record_train PROPERTIES FIXTURES_SETUP record_train_file)
  # Everyday training code (tests/record/corpus, expectations in each script's header): schedulers, autocast +
  # GradScaler, gradient accumulation, torch.compile (skipped on 1.13, which has none), DataLoader workers,
  # checkpoint save/resume, a failure halfway, sys.exit(3), DDP with gloo under torchrun.
  file(GLOB DS_RECORD_CORPUS CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/record/corpus ${CMAKE_CURRENT_SOURCE_DIR}/record/corpus/*.py)
  foreach(script ${DS_RECORD_CORPUS})
    get_filename_component(name ${script} NAME_WE)
    add_test(NAME record_corpus_${name}
             COMMAND ${DS_RECORD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/record/check_corpus.py
                     --devicescope $<TARGET_FILE:devicescope> --python ${DS_RECORD_PYTHON} --work ${DS_RECORD_WORK}/corpus ${name})
    set_tests_properties(record_corpus_${name} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "record;python")
  endforeach()

  # The CUDA allocator's snapshot without a GPU: a synthetic 2.x snapshot merged into a recording (the
  # recorder's frames stripped, workspaces and address reuse told apart), read back by inspect; the history
  # API's 2.1 / 2.0 / 1.13 forms.
  add_test(NAME record_allocator_merge
           COMMAND ${DS_RECORD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/record/check_allocator_merge.py
                   --recorder ${PROJECT_SOURCE_DIR}/engine/recorder --devicescope $<TARGET_FILE:devicescope>
                   --work ${DS_RECORD_WORK}/allocator)
  set_tests_properties(record_allocator_merge PROPERTIES TIMEOUT 120 LABELS "record;python")

  # The recorder wheel (build/dist, target recorder_wheel) installed offline into a fresh venv that sees
  # Debian's torch: a script, the API and torchrun -m devicescope_recorder recorded there, opened by inspect.
  if(DS_RECORDER_WHEEL)
    add_test(NAME record_wheel_venv
             COMMAND ${DS_RECORD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/record/check_wheel.py
                     --wheel ${DS_RECORDER_WHEEL} --devicescope $<TARGET_FILE:devicescope>
                     --python ${DS_RECORD_PYTHON} --work ${DS_RECORD_WORK}/wheel)
    set_tests_properties(record_wheel_venv PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "record;python")
  endif()

  find_program(DS_RECORD_XVFB_RUN xvfb-run)
  if(DEVICESCOPE_GUI AND DS_RECORD_XVFB_RUN)
    add_test(NAME record_opens_in_app
             COMMAND ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gui/check_screenshot.py
                     --devicescope $<TARGET_FILE:devicescope> --out ${DS_RECORD_WORK}/train.png
                     --expect ${CMAKE_CURRENT_SOURCE_DIR}/record/expect_screenshot.json
                     --extra=--open-trace=${DS_RECORD_WORK}/train.json)
    set_tests_properties(record_opens_in_app PROPERTIES TIMEOUT 300 FIXTURES_REQUIRED record_train_file
                         LABELS "record;gui")
  endif()
endif()
