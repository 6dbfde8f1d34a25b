# Read by cpack: what a package must never be built from.
# The daemon looks for its plugins and scripts under the prefix it
# was built with, so a .deb (installed under /usr) needs a /usr build.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_PACKAGING_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "mnemod's .deb installs under /usr, but this build was configured with "
                      "CMAKE_INSTALL_PREFIX=${CPACK_PACKAGING_INSTALL_PREFIX}; configure a separate build with "
                      "-DCMAKE_INSTALL_PREFIX=/usr and run cpack there")
endif()
# A test build's daemon follows a clock file named by the environment (daemon/core/test_clock.h).
if(CPACK_MNEMO_TEST_CLOCK)
  message(FATAL_ERROR "this build was configured with -DMNEMO_TEST_CLOCK=ON, whose mnemod reads its clock from "
                      "a file a test moves; package a build configured without it")
endif()
