# The install layout and the Debian package.
#
# cmake --install puts: bin/mnemod, bin/mnemoctl,
# <libdir>/mnemod/plugins/*.so (plugins/CMakeLists.txt), include/mnemo_plugin.h
# (daemon/CMakeLists.txt), share/mnemod/scripts, share/doc/mnemod/README.md,
# share/doc/mnemod/docs (the reference), share/doc/mnemod/copyright (the
# licenses, as Debian policy wants them), share/man/man{1,5,8} (man/CMakeLists.txt),
# <sysconfdir>/mnemod/mnemod.yaml (the production example), the systemd units
# and the sysusers entry. With CMAKE_INSTALL_PREFIX=/usr, <sysconfdir> is /etc
# and the units go where Debian's systemd looks (/lib/systemd/system).
#
# The .deb: configure with -DCMAKE_INSTALL_PREFIX=/usr, build, then `cpack -G DEB`
# in the build folder (the prefix is compiled into the daemon's plugin and
# script lookup, so the package refuses any other prefix).

# --- where the systemd files go ------------------------------------------------
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  pkg_get_variable(MNEMO_DEFAULT_UNIT_DIR systemd systemdsystemunitdir)
  pkg_get_variable(MNEMO_DEFAULT_SYSUSERS_DIR systemd sysusersdir)
endif()
# Not /usr (or no systemd.pc): the prefix's own folders, which systemd also reads
# for /usr/local.
if(NOT MNEMO_DEFAULT_UNIT_DIR)
  set(MNEMO_DEFAULT_UNIT_DIR "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
endif()
if(NOT MNEMO_DEFAULT_SYSUSERS_DIR)
  set(MNEMO_DEFAULT_SYSUSERS_DIR "${CMAKE_INSTALL_PREFIX}/lib/sysusers.d")
endif()
# A folder the cache holds from another prefix's default follows the prefix
# (a build folder configured again with -DCMAKE_INSTALL_PREFIX=/usr packaged
# the units under /usr/local); one the user chose stays.
function(mnemo_prefix_path name default help)
  if(NOT DEFINED ${name} OR "${${name}}" STREQUAL "${MNEMO_LAST_DEFAULT_${name}}")
    set(${name} "${default}" CACHE PATH "${help}" FORCE)
  endif()
  set(MNEMO_LAST_DEFAULT_${name} "${default}" CACHE INTERNAL "the default ${name} was given last")
endfunction()
mnemo_prefix_path(MNEMO_SYSTEMD_UNIT_DIR "${MNEMO_DEFAULT_UNIT_DIR}" "Where mnemod.service and mnemod.socket are installed")
mnemo_prefix_path(MNEMO_SYSUSERS_DIR "${MNEMO_DEFAULT_SYSUSERS_DIR}" "Where the sysusers.d entry is installed")

# --- paths the unit files name --------------------------------------------------
set(MNEMO_BINDIR "${CMAKE_INSTALL_FULL_BINDIR}")
set(MNEMO_SYSCONFDIR "${CMAKE_INSTALL_FULL_SYSCONFDIR}")
set(MNEMO_DOCDIR "${CMAKE_INSTALL_FULL_DOCDIR}")
set(MNEMO_UNIT_BUILD_DIR "${CMAKE_BINARY_DIR}/systemd")
configure_file(${CMAKE_SOURCE_DIR}/systemd/mnemod.service.in ${MNEMO_UNIT_BUILD_DIR}/mnemod.service @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/systemd/mnemod.socket ${MNEMO_UNIT_BUILD_DIR}/mnemod.socket COPYONLY)

# --- install rules ----------------------------------------------------------------
install(TARGETS mnemoctl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scripts/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mnemod/scripts)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The reference the README and the manual pages point to.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# Every key with its default and what it does, for the production file's readers.
install(FILES ${CMAKE_SOURCE_DIR}/config/mnemod.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME mnemod.example.yaml)
# Absolute: /etc for the /usr prefix, not /usr/etc.
install(FILES ${CMAKE_SOURCE_DIR}/config/mnemod.production.yaml
        DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/mnemod RENAME mnemod.yaml)
install(FILES ${MNEMO_UNIT_BUILD_DIR}/mnemod.service ${MNEMO_UNIT_BUILD_DIR}/mnemod.socket
        DESTINATION ${MNEMO_SYSTEMD_UNIT_DIR})
install(FILES ${CMAKE_SOURCE_DIR}/systemd/mnemod.sysusers DESTINATION ${MNEMO_SYSUSERS_DIR} RENAME mnemod.conf)

# --- the copyright file (Debian policy 12.5, machine-readable format) ---------------
# Made from the texts of licenses/ so that they live in one place: a license's
# body from the line starting with `from`, each line indented by one space and
# blank lines written " .".
function(mnemo_dep5_license file from out)
  file(READ ${CMAKE_SOURCE_DIR}/licenses/${file} text)
  string(FIND "${text}" "${from}" start)
  if(start LESS 0)
    message(FATAL_ERROR "licenses/${file} has no line starting with '${from}'")
  endif()
  string(SUBSTRING "${text}" ${start} -1 text)
  string(STRIP "${text}" text)
  string(REPLACE "\n\n" "\n.\n" text "${text}")
  string(REPLACE "\n" "\n " text "${text}")
  set(${out} " ${text}" PARENT_SCOPE)
endfunction()
mnemo_dep5_license(Lua.txt "Permission is hereby granted" MNEMO_LUA_LICENSE)
mnemo_dep5_license(Snowball.txt "Redistribution and use" MNEMO_SNOWBALL_LICENSE)
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/copyright.in ${CMAKE_BINARY_DIR}/debian/copyright @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# --- the .deb ---------------------------------------------------------------------
set(MNEMO_DEBIAN_DIR "${CMAKE_BINARY_DIR}/debian")
foreach(script postinst prerm postrm)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/${script}.in ${MNEMO_DEBIAN_DIR}/${script} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                  WORLD_READ WORLD_EXECUTE)
endforeach()
file(WRITE ${MNEMO_DEBIAN_DIR}/conffiles "${CMAKE_INSTALL_FULL_SYSCONFDIR}/mnemod/mnemod.yaml\n")

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "mnemod")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "mnemod maintainers <maintainers@mnemod.invalid>")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "session and memory daemon for AI agents")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "mnemod keeps the conversations of AI agents (sessions with ordered events, state at app,\n"
    "user and session scope, summaries, lanes) behind a small HTTP/JSON API, with storage\n"
    "backends loaded as plugins (memory, sqlite, mysql), search over transcripts, and mnemoctl,\n"
    "a Lua admin console. The package ships the systemd unit (enabled, not started), a socket\n"
    "unit, and /etc/mnemod/mnemod.yaml.")
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Runtime libraries come from dpkg-shlibdeps; the user is made by systemd-sysusers or adduser.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "systemd | adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${MNEMO_DEBIAN_DIR}/postinst;${MNEMO_DEBIAN_DIR}/prerm;${MNEMO_DEBIAN_DIR}/postrm;${MNEMO_DEBIAN_DIR}/conffiles")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_MNEMO_TEST_CLOCK "${MNEMO_TEST_CLOCK}")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/CPackCheckPrefix.cmake")
include(CPack)
