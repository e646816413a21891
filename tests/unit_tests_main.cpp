// The harness's Boost.Test suites in one executable, harness_tests (tests/CMakeLists.txt): each
// tests/<name>.cpp is the suite <name>, which ctest runs as the test <name> (--run_test=<name>).
#define BOOST_TEST_MODULE wavebench
#include <boost/test/unit_test.hpp>
