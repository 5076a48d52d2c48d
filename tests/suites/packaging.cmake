# The Debian package: built with cpack from this build, unpacked with dpkg -x, run from another folder
# (tests/packaging/deb_install.py; skipped, exit 77, without dpkg-deb).
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET ds_python)
  add_test(NAME packaging_deb_install
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/packaging/deb_install.py ${CMAKE_BINARY_DIR}
                   ${PROJECT_VERSION})
  set_tests_properties(packaging_deb_install PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77 LABELS "packaging")
endif()
