# `make install` and `cpack -G DEB`: the devicescope binary in bin/, and beside it in share/devicescope/ the
# folders it reads at run time, laid out as in the source tree (engine/python: the torch package and the
# session helper; engine/recorder; assets/lessons), so an installed binary finds them relative to itself
# (engine/core/install_layout.h) and works from any folder. Shaders and the starter are compiled in.
include(GNUInstallDirs)
# cpack and `cmake --install` take the devicescope already built (build it first), instead of building every
# target (tests included) on the way.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(DS_DATA_DEST ${CMAKE_INSTALL_DATADIR}/devicescope)
install(TARGETS devicescope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/python/ DESTINATION ${DS_DATA_DEST}/engine/python
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
if(EXISTS ${PROJECT_SOURCE_DIR}/engine/recorder)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/recorder/ DESTINATION ${DS_DATA_DEST}/engine/recorder
          FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lessons DESTINATION ${DS_DATA_DEST}/assets)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME devicescope)
set(CPACK_PACKAGE_VENDOR "DeviceScope")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Visualizer of PyTorch device memory and transfers, with simulated GPUs")
set(CPACK_PACKAGE_CONTACT "DeviceScope maintainers <maintainers@devicescope.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # the build is RelWithDebInfo: the package ships without the debug info
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # devicescope_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Shared libraries (libpython3.11, GLFW, OpenGL, BLAS) from dpkg-shlibdeps; the embedded Python's modules
# that DeviceScope's torch imports (numpy) by name.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3.11, python3-numpy")
set(CPACK_GENERATOR DEB)
include(CPack)
