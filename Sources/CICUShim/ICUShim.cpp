#include "CICUShim.h"

#include <cstring>
#include <unicode/ucal.h>
#include <unicode/uclean.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

namespace {

int32_t copyOut(const char *text, char *out, int32_t capacity) {
    int32_t length = static_cast<int32_t>(std::strlen(text));
    if (length + 1 > capacity) return -1;
    std::memcpy(out, text, static_cast<size_t>(length) + 1);
    return length;
}

// Converts ICU's UTF-16 result into the caller's UTF-8 buffer.
int32_t utf16ToOut(const UChar *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = 0;
    u_strToUTF8(out, capacity, &written, text, length, &status);
    if (U_FAILURE(status) || written >= capacity) return -1;
    out[written] = '\0';
    return written;
}

bool utf8ToUTF16(const char *text, UChar *buffer, int32_t capacity, int32_t *length) {
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8(buffer, capacity, length, text, -1, &status);
    return U_SUCCESS(status) && *length < capacity;
}

}  // namespace

extern "C" int32_t cp_icu_version(char *out, int32_t capacity) {
    UVersionInfo info;
    u_getVersion(info);
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(info, text);
    return copyOut(text, out, capacity);
}

extern "C" int32_t cp_icu_tzdata_version(char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const char *version = ucal_getTZDataVersion(&status);
    if (U_FAILURE(status) || version == nullptr) return -1;
    return copyOut(version, out, capacity);
}

extern "C" int32_t cp_icu_windows_to_iana(const char *windowsId, const char *region, char *out,
                                          int32_t capacity) {
    UChar windows[128];
    int32_t windowsLength = 0;
    if (!utf8ToUTF16(windowsId, windows, 128, &windowsLength)) return -1;
    UChar result[128];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ucal_getTimeZoneIDForWindowsID(windows, windowsLength, region, result, 128, &status);
    if (U_FAILURE(status)) return -1;
    if (length == 0) return 0;
    return utf16ToOut(result, length, out, capacity);
}
