#ifndef NOTIFYD_CPLAINBYTES_H
#define NOTIFYD_CPLAINBYTES_H
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* Sixteen bytes of a JSON string looked at in one go, for PlainBytes (Sources/JSON): Swift's own SIMD types
   compile these compares lane by lane. Inline, so that the Swift code that calls it compiles it in. */

/// One bit for each of the 16 bytes at `p` that is a quote, a backslash or a control character (bit i for
/// p[i]); `high` gets one bit for each byte that is not ASCII (0x80 or above).
static inline uint32_t notifyd_special16(const uint8_t *p, uint32_t *high) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x22));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C));
    /* v < 0x20, unsigned: the smaller of v and 0x1F is v. */
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    *high = (uint32_t)_mm_movemask_epi8(v);
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control));
#else
    uint32_t marks = 0, highs = 0;
    for (int i = 0; i < 16; i++) {
        uint8_t b = p[i];
        if (b == 0x22 || b == 0x5C || b < 0x20) marks |= 1u << i;
        if (b >= 0x80) highs |= 1u << i;
    }
    *high = highs;
    return marks;
#endif
}
/// For a console line: one bit for each of the 16 bytes at `p` that is not printable ASCII or is a backslash (below
/// 0x20, 0x7F or above, or 0x5C); `quote` gets one bit for each space, quote or `=` (a value with one is quoted).
static inline uint32_t notifyd_console16(const uint8_t *p, uint32_t *quote) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    /* As signed bytes, 0x80 and above are negative: below 0x20 catches them with the controls. */
    __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    __m128i del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C));
    __m128i space = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x20));
    __m128i dquote = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x22));
    __m128i equals = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x3D));
    *quote = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(space, dquote), equals));
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, del), backslash));
#else
    uint32_t marks = 0, quotes = 0;
    for (int i = 0; i < 16; i++) {
        uint8_t b = p[i];
        if (b < 0x20 || b >= 0x7F || b == 0x5C) marks |= 1u << i;
        if (b == 0x20 || b == 0x22 || b == 0x3D) quotes |= 1u << i;
    }
    *quote = quotes;
    return marks;
#endif
}
/// For at most 16 bytes held as two little-endian words (`count` bytes used): nonzero when one of those bytes is a
/// quote, a backslash or a control character, or, with `del`, DEL (0x7F). The bytes past `count` are not looked at.
static inline uint32_t notifyd_special_words(uint64_t low, uint64_t high, long count, int del) {
#if defined(__SSE2__)
    __m128i v = _mm_set_epi64x((long long)high, (long long)low);
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x22));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C));
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    __m128i marks = _mm_or_si128(_mm_or_si128(quote, backslash), control);
    if (del) marks = _mm_or_si128(marks, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    return (uint32_t)_mm_movemask_epi8(marks) & ((1u << count) - 1);
#else
    uint32_t marks = 0;
    for (long i = 0; i < count; i++) {
        uint8_t b = (uint8_t)((i < 8 ? low >> (8 * i) : high >> (8 * (i - 8))) & 0xFF);
        if (b == 0x22 || b == 0x5C || b < 0x20 || (del && b == 0x7F)) marks |= 1u << i;
    }
    return marks;
#endif
}
#endif
