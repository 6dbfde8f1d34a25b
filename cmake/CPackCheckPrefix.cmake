# Read by cpack: the daemon looks for its plugins and scripts under the prefix it
# was built with, so a .deb (installed under /usr) needs a /usr build.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_PACKAGING_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "mnemod's .deb installs under /usr, but this build was configured with "
                      "CMAKE_INSTALL_PREFIX=${CPACK_PACKAGING_INSTALL_PREFIX}; configure a separate build with "
                      "-DCMAKE_INSTALL_PREFIX=/usr and run cpack there")
endif()
