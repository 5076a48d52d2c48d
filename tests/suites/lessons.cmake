# Workshop lessons (assets/lessons): `devicescope lessons --check` runs every lesson headless, each in a fresh
# session, and verifies every expectation it declares; the parser's unit test runs under plain python3.
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET ds_python)
  add_test(NAME lessons_check COMMAND $<TARGET_FILE:devicescope> lessons --check)
  set_tests_properties(lessons_check PROPERTIES TIMEOUT 900 LABELS "lessons;python")
  # The cuBLAS workspace lesson on a simulated H100 (sm_90: 32 MiB), beside the default profile's sm_80 run above.
  add_test(NAME lessons_check_cublas_workspace_h100
           COMMAND $<TARGET_FILE:devicescope> lessons --check --lesson 020 --backend sim --link pcie5-x16)
  set_tests_properties(lessons_check_cublas_workspace_h100 PROPERTIES TIMEOUT 300 LABELS "lessons;python")
  # No devices at all: lessons that need a GPU say so and are checked on simulated devices, none fails.
  add_test(NAME lessons_check_no_devices
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lessons/check_no_devices.sh $<TARGET_FILE:devicescope>)
  set_tests_properties(lessons_check_no_devices PROPERTIES TIMEOUT 900 LABELS "lessons;python")
endif()

set(DS_LESSON_PYTHON /usr/bin/python3)
if(NOT EXISTS ${DS_LESSON_PYTHON})
  set(DS_LESSON_PYTHON ${Python_EXECUTABLE})
endif()
add_test(NAME lessons_parser
         COMMAND ${DS_LESSON_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/lessons/test_lesson_parser.py)
set_tests_properties(lessons_parser PROPERTIES TIMEOUT 300 LABELS "lessons")
