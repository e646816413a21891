// A fake libnvidia-ml for the telemetry tests (tests/telemetry_test.cpp, tests/telemetry_cli.py):
// the few NVML calls the harness makes (harness/telemetry/nvml_api.h), two devices told apart by
// their PCI bus ids, and a state file that shows what was locked and restored.
// WAVEBENCH_FAKE_NVML_STATE    a file: "locked MIN MAX" after a lock, "reset" after a restore
// WAVEBENCH_FAKE_NVML_REASONS  the clock-event reason bits every reading gives (hex), default 0
// WAVEBENCH_FAKE_NVML_DENY     set: locking fails with NVML_ERROR_NO_PERMISSION
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <strings.h>

extern "C" {

struct fake_device {
    const char* pci;
    unsigned sm, mem, app_sm;
    int temp;
    unsigned power_mw;
};
static struct fake_device devices[] = {{"0000:1b:00.0", 1980, 2619, 1755, 41, 300000},
                                       {"0000:2a:00.0", 1410, 1593, 1095, 37, 90000}};

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
const char* nvmlErrorString(int r)
{
    return r == 4 ? "Insufficient Permissions" : r == 6 ? "Not Found" : "Unknown Error";
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* pci, struct fake_device** d)
{
    for (unsigned i = 0; i < sizeof devices / sizeof devices[0]; ++i)
        if (strcasecmp(pci, devices[i].pci) == 0) {
            *d = &devices[i];
            return 0;
        }
    return 6; /* NVML_ERROR_NOT_FOUND */
}

int nvmlDeviceGetClockInfo(struct fake_device* d, unsigned type, unsigned* mhz)
{
    *mhz = type == 2 ? d->mem : d->sm;
    return 0;
}

int nvmlDeviceGetClock(struct fake_device* d, unsigned type, unsigned id, unsigned* mhz)
{
    *mhz = id == 2 && type == 1 ? d->app_sm : type == 2 ? d->mem : d->sm;
    return 0;
}

struct temperature {
    unsigned version, sensor;
    int value;
};
int nvmlDeviceGetTemperatureV(struct fake_device* d, struct temperature* t)
{
    if (t->version != (unsigned)(sizeof(struct temperature) | (1u << 24))) return 2;
    t->value = d->temp;
    return 0;
}

int nvmlDeviceGetPowerUsage(struct fake_device* d, unsigned* mw)
{
    *mw = d->power_mw;
    return 0;
}

int nvmlDeviceGetCurrentClocksEventReasons(struct fake_device* d, unsigned long long* reasons)
{
    (void)d;
    const char* v = getenv("WAVEBENCH_FAKE_NVML_REASONS");
    *reasons = v ? strtoull(v, NULL, 16) : 0;
    return 0;
}

/* The device's power times the time since the epoch of CLOCK_MONOTONIC, in mJ. */
int nvmlDeviceGetTotalEnergyConsumption(struct fake_device* d, unsigned long long* mj)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const double s = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    *mj = (unsigned long long)(s * d->power_mw);
    return 0;
}

static void state(const char* text)
{
    const char* path = getenv("WAVEBENCH_FAKE_NVML_STATE");
    if (!path) return;
    FILE* f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

int nvmlDeviceSetGpuLockedClocks(struct fake_device* d, unsigned min, unsigned max)
{
    if (getenv("WAVEBENCH_FAKE_NVML_DENY")) return 4;
    char text[64];
    snprintf(text, sizeof text, "locked %s %u %u\n", d->pci, min, max);
    state(text);
    return 0;
}

int nvmlDeviceResetGpuLockedClocks(struct fake_device* d)
{
    char text[64];
    snprintf(text, sizeof text, "reset %s\n", d->pci);
    state(text);
    return 0;
}

} // extern "C"
