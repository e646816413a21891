// A shared library that is not a wavebench plugin: no entry point.
extern "C" __attribute__((visibility("default"))) int something_else() { return 1; }
