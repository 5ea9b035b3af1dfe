// RFC 7529 RSCALE: ICU's calendars (Chinese, Hebrew, Islamic, …) seen as years of months, each month
// with its RFC 7529 label (number and leap flag), its first day and its length in Gregorian days.
#include "CICUShim.h"

#include <cstring>
#include <memory>
#include <unicode/calendar.h>
#include <unicode/locid.h>
#include <unicode/timezone.h>

namespace {

constexpr double kMillisPerDay = 86400000.0;

// ICU's Hebrew calendar numbers its months 0…12 with 5 (Adar I) present in leap years only;
// RFC 7529 §4.2 calls Adar I "5L" and numbers the months after it 6…12.
void labelFor(const char *type, int32_t icuMonth, int32_t icuLeap, int32_t *number, int32_t *isLeap) {
    if (std::strcmp(type, "hebrew") == 0) {
        if (icuMonth < 5) {
            *number = icuMonth + 1;
            *isLeap = 0;
        } else if (icuMonth == 5) {
            *number = 5;
            *isLeap = 1;
        } else {
            *number = icuMonth;
            *isLeap = 0;
        }
        return;
    }
    *number = icuMonth + 1;
    *isLeap = icuLeap != 0 ? 1 : 0;
}

}  // namespace

struct cp_calendar_scale {
    std::unique_ptr<icu::Calendar> calendar;
    char type[32];
};

extern "C" cp_calendar_scale *cp_icu_scale_open(const char *name) {
    if (name == nullptr || std::strlen(name) > 24) return nullptr;
    char localeId[64] = "und@calendar=";
    std::strcat(localeId, name);
    UErrorCode status = U_ZERO_ERROR;
    // UTC, so a day is always 86 400 000 ms and a date never shifts with a zone's offset.
    std::unique_ptr<icu::Calendar> calendar(
        icu::Calendar::createInstance(icu::TimeZone::getGMT()->clone(), icu::Locale(localeId), status));
    if (U_FAILURE(status) || !calendar) return nullptr;
    // ICU falls back to the Gregorian calendar for a name it does not know: refuse that.
    const char *type = calendar->getType();
    if (type == nullptr || std::strcmp(type, name) != 0 || std::strlen(type) >= 32) return nullptr;
    auto *scale = new cp_calendar_scale;
    scale->calendar = std::move(calendar);
    std::strcpy(scale->type, type);
    return scale;
}

extern "C" void cp_icu_scale_close(cp_calendar_scale *scale) { delete scale; }

extern "C" int32_t cp_icu_scale_date(cp_calendar_scale *scale, int64_t day, int32_t *extendedYear, int32_t *month,
                                     int32_t *isLeapMonth, int32_t *dayOfMonth) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Calendar &cal = *scale->calendar;
    cal.setTime(static_cast<double>(day) * kMillisPerDay, status);
    *extendedYear = cal.get(UCAL_EXTENDED_YEAR, status);
    int32_t icuMonth = cal.get(UCAL_MONTH, status);
    int32_t icuLeap = cal.get(UCAL_IS_LEAP_MONTH, status);
    *dayOfMonth = cal.get(UCAL_DATE, status);
    if (U_FAILURE(status)) return 0;
    labelFor(scale->type, icuMonth, icuLeap, month, isLeapMonth);
    return 1;
}

namespace {

// The first day (days since 1970-01-01) of an ICU month; going from fields to a time is the cheap
// direction in ICU (a few microseconds even for the Chinese calendar, whose time-to-fields
// computation costs some 100 µs of new moons and solar terms).
bool monthStart(icu::Calendar &cal, int32_t extendedYear, int32_t icuMonth, int32_t leap, int64_t *day) {
    UErrorCode status = U_ZERO_ERROR;
    cal.clear();
    cal.set(UCAL_EXTENDED_YEAR, extendedYear);
    cal.set(UCAL_MONTH, icuMonth);
    cal.set(UCAL_IS_LEAP_MONTH, leap);
    cal.set(UCAL_DATE, 1);
    double millis = cal.getTime(status);
    if (U_FAILURE(status)) return false;
    *day = static_cast<int64_t>(millis / kMillisPerDay);
    return true;
}

}  // namespace

extern "C" int32_t cp_icu_scale_year(cp_calendar_scale *scale, int32_t extendedYear, int32_t *numbers,
                                     int32_t *leapFlags, int64_t *firstDays, int32_t *lengths, int32_t capacity) {
    icu::Calendar &cal = *scale->calendar;
    const bool hebrew = std::strcmp(scale->type, "hebrew") == 0;
    const int32_t lastMonth = cal.getMaximum(UCAL_MONTH);
    // The regular months (Hebrew: all but Adar I, ICU's month 5) and the next year's first day.
    int32_t regular[16];
    int64_t starts[17];
    int32_t regularCount = 0;
    for (int32_t m = 0; m <= lastMonth && regularCount < 16; m++) {
        if (hebrew && m == 5) continue;
        if (!monthStart(cal, extendedYear, m, 0, &starts[regularCount])) return -1;
        regular[regularCount++] = m;
    }
    int64_t nextYear = 0;
    if (!monthStart(cal, extendedYear + 1, 0, 0, &nextYear)) return -1;
    starts[regularCount] = nextYear;
    int32_t count = 0;
    for (int32_t i = 0; i < regularCount; i++) {
        int64_t gap = starts[i + 1] - starts[i];
        if (gap <= 0) return -1;
        if (count >= capacity) return -1;
        labelFor(scale->type, regular[i], 0, &numbers[count], &leapFlags[count]);
        firstDays[count] = starts[i];
        lengths[count] = static_cast<int32_t>(gap);
        count += 1;
        // No month is longer than 31 days: a longer gap holds a leap month (Chinese and Dangi:
        // the leap month after month i; Hebrew: Adar I after Shevat).
        if (gap > 31) {
            int64_t leapStart = 0;
            bool found = hebrew ? monthStart(cal, extendedYear, 5, 0, &leapStart)
                                : monthStart(cal, extendedYear, regular[i], 1, &leapStart);
            if (!found || leapStart <= starts[i] || leapStart >= starts[i + 1] || count >= capacity) return -1;
            lengths[count - 1] = static_cast<int32_t>(leapStart - starts[i]);
            labelFor(scale->type, hebrew ? 5 : regular[i], hebrew ? 0 : 1, &numbers[count], &leapFlags[count]);
            firstDays[count] = leapStart;
            lengths[count] = static_cast<int32_t>(starts[i + 1] - leapStart);
            count += 1;
        }
    }
    return count;
}
