# GUI checks: view-model tests without GL (test_gui_model) and, when the app is built, screenshot
# tests that run devicescope under Xvfb and check the PNG and the view model it drew (out.png.json).
file(GLOB GUI_MODEL_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gui/model/*.cpp)
if(GUI_MODEL_TESTS AND TARGET ds_gui_model)
  add_executable(test_gui_model ${GUI_MODEL_TESTS})
  target_link_libraries(test_gui_model PRIVATE ds_gui_model GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_gui_model PRIVATE DEVICESCOPE_ASSET_DIR="${PROJECT_SOURCE_DIR}/assets")
  gtest_discover_tests(test_gui_model DISCOVERY_TIMEOUT 60)
endif()
