# pplda_library(<folder> SOURCES ... DEPS ...): the pplda::<folder> target.
function(pplda_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(pplda_${name} ${ARG_SOURCES})
  add_library(pplda::${name} ALIAS pplda_${name})
  target_include_directories(pplda_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(pplda_${name} PUBLIC ${ARG_DEPS})
endfunction()

# pplda_daemon(<name> <binary> DEPS ...): a daemon folder: every .cc but
# main.cc in pplda::<name>, and <binary> built from main.cc over it. Only
# when pplda::net (gRPC) is built.
function(pplda_daemon name binary)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  if(NOT TARGET pplda::net)
    return()
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/main.cc)
  pplda_library(${name} SOURCES ${sources} DEPS pplda::net gRPC::grpc++ ${ARG_DEPS})
  add_executable(${binary} main.cc)
  target_link_libraries(${binary} PRIVATE pplda::${name})
endfunction()

# pplda_test(<name> SOURCES ... DEPS ... [LABELS ...]): a GoogleTest binary
# whose cases are registered one by one with ctest (label "unit" unless told).
function(pplda_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;DEPS;LABELS" ${ARGN})
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  # Tests include shared helpers as "tests/<folder>/..._util.h".
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gmock GTest::gtest_main)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
    DISCOVERY_TIMEOUT 60)
endfunction()

# pplda_benchmark(<name> SOURCES ... DEPS ...): a Google Benchmark binary.
function(pplda_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(PPLDA_BUILD_BENCHMARKS)
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark)
  endif()
endfunction()

# pplda_tests_in_folder(<prefix> DEPS ... [EXCLUDE file ...]): every foo_test.cc
# of the calling folder becomes the binary <prefix>_foo_test (label "unit");
# foo_stat_test.cc gets label "statistical" (fixed seeds, stated error rates)
# and a 900 s timeout; foo_slow_test.cc label "slow" (minutes on 2 cores: not
# run by deploy/test.sh; `ctest -L slow`) and a 3600 s timeout.
function(pplda_tests_in_folder prefix)
  cmake_parse_arguments(ARG "" "" "DEPS;EXCLUDE" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  foreach(excluded ${ARG_EXCLUDE})
    list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/${excluded})
  endforeach()
  foreach(src ${sources})
    get_filename_component(name ${src} NAME_WE)
    if(name MATCHES "_stat_test$")
      pplda_test(${prefix}_${name} SOURCES ${src} DEPS ${ARG_DEPS} LABELS statistical TIMEOUT 900)
    elseif(name MATCHES "_slow_test$")
      pplda_test(${prefix}_${name} SOURCES ${src} DEPS ${ARG_DEPS} LABELS slow TIMEOUT 3600)
    else()
      pplda_test(${prefix}_${name} SOURCES ${src} DEPS ${ARG_DEPS})
    endif()
  endforeach()
endfunction()
