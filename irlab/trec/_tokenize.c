/* irlab.trec._tokenize: the array parse of irlab.trec.readers (_numpy_parse) in one pass over a chunk's bytes.
 *
 * Optional (setup.py builds it when a C compiler is there; irlab works the same without it).  It accepts a subset of
 * what the numpy parse accepts and, for that subset, fills the same columns: every line holds exactly nfields tokens
 * of printable ASCII bytes other than '#', separated by blanks (tab, vertical tab, form feed, carriage return, space),
 * the chunk ends with a newline, ids are at most max_id bytes and numbers are written [+-]digits[.digits] with 1 to 15
 * digits.  Such a number is converted as the numpy parse does it: the digits as an exact integer divided by an exact
 * power of ten, one correctly rounded IEEE division, so the same double that strtod gives.  Anything else returns None
 * and the numpy parse (then the checked line-by-line reader, which names the line) decides.
 *
 * No numpy C API: the caller passes preallocated int64 / float64 arrays through the buffer protocol, and the GIL is
 * released during the pass (the readers parse chunks on several threads). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OTHER = 0, BLANK = 1, NEWLINE = 2, TOKEN = 3 };
static unsigned char byte_class[256];

static const double POW10[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* Where the token starting at p[i] ends: the first byte that is not of class TOKEN.  The chunk ends with a newline
 * (not a token byte), so the scan stops inside it; 8 bytes at a time while 8 are left (bytes >= 128, <= 32, 127 and
 * '#' found with word operations), else byte by byte. */
static Py_ssize_t token_end(const unsigned char *p, Py_ssize_t i, Py_ssize_t n)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    while (i + 8 <= n) {
        uint64_t x, low, stop;
        memcpy(&x, p + i, 8);
        low = (x & ~high) | high;                          /* each byte's low 7 bits, with the high bit set */
        stop = x & high;                                   /* >= 128 */
        stop |= ~(low - 33 * ones) & high;                 /* low 7 bits < 33 (no borrow: every byte >= 128) */
        stop |= ((x & ~high) + ones) & high;               /* ... == 127 (no carry: 127 + 1 fits a byte) */
        stop |= ~((low ^ 0x23 * ones) - ones) & high;      /* ... == '#' (0x23; the xor keeps the high bit) */
        if (stop)
            return i + (__builtin_ctzll(stop) >> 3);
        i += 8;
    }
#endif
    while (byte_class[p[i]] == TOKEN)
        i++;
    return i;
}

/* [+-]digits[.digits], 1 to 15 digits (no '.' when integer); 0 for any other token. */
static int parse_number(const unsigned char *s, Py_ssize_t len, int integer, double *real, int64_t *whole)
{
    Py_ssize_t i = 0;
    int negative = 0, digits = 0, frac = 0, dot = 0;
    int64_t mantissa = 0;
    if (len > 17)   /* a sign, 15 digits and a '.' at most */
        return 0;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        i = 1;
    }
    for (; i < len; i++) {
        unsigned int c = s[i];
        if (c - '0' <= 9u) {
            mantissa = mantissa * 10 + (c - '0');
            digits++;
            frac += dot;
        } else if (c == '.' && !dot && !integer) {
            dot = 1;
        } else {
            return 0;
        }
    }
    if (digits == 0 || digits > 15)
        return 0;
    if (integer) {
        *whole = negative ? -mantissa : mantissa;
    } else {
        double value = (double)mantissa / POW10[frac];
        *real = negative ? -value : value;
    }
    return 1;
}

/* parse_number for the usual score or grade: 1 to 8 bytes of digits and at most one '.', no sign, 8 bytes readable
 * at s.  The '.' is taken out and the digits converted 8 at a time with word arithmetic (left-padded with '0's), to
 * the same mantissa and number of decimals as parse_number's loop, then the same division.  0 for any other token:
 * parse_number decides. */
static inline int parse_short_number(const unsigned char *s, Py_ssize_t len, int integer, double *real,
                                     int64_t *whole)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, zeros = 0x3030303030303030ULL, high4 = 0xF0F0F0F0F0F0F0F0ULL;
    uint64_t x, t, dots, mantissa;
    int digits = (int)len, frac = 0;
    if (len > 8)
        return 0;
    memcpy(&x, s, 8);
    if (len < 8)
        x &= (1ULL << (8 * len)) - 1;
    t = x ^ 0x2E2E2E2E2E2E2E2EULL;                       /* '.' bytes become 0 (bytes past the token: 0x2E) */
    dots = ~(((t & low7) + low7) | t | low7);            /* exactly the high bit of each 0 byte */
    if (dots) {
        int dot = __builtin_ctzll(dots) >> 3;
        if (integer || (dots & (dots - 1)))
            return 0;
        x = (x & ((1ULL << (8 * dot)) - 1)) | (dot == 7 ? 0 : (x >> (8 * (dot + 1))) << (8 * dot));
        digits = (int)len - 1;
        frac = digits - dot;
    }
    if (digits == 0)
        return 0;
    if (digits < 8)
        x = (x << (8 * (8 - digits))) | (zeros & ((1ULL << (8 * (8 - digits))) - 1));
    if ((x & high4) != zeros || ((x + 0x0606060606060606ULL) & high4) != zeros)   /* a byte not '0' to '9' */
        return 0;
    x -= zeros;
    x = x * 10 + (x >> 8);
    mantissa = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
                (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    if (integer)
        *whole = (int64_t)mantissa;
    else
        *real = (double)mantissa / POW10[frac];
    return 1;
#else
    return 0;
#endif
}

/* dst[:width] = the len bytes at src, then NUL bytes.  A 64-bit word at a time, masked, when width bytes can be read
 * at src (width is a multiple of 8: the readers' column widths), else memcpy and memset. */
static inline void copy_padded(unsigned char *dst, const unsigned char *src, int64_t len, Py_ssize_t width,
                               int readable)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (readable && width % 8 == 0) {
        Py_ssize_t k;
        for (k = 0; k < width; k += 8) {
            uint64_t x = 0;
            int64_t left = len - k;
            if (left >= 8)
                memcpy(&x, src + k, 8);
            else if (left > 0) {
                memcpy(&x, src + k, 8);
                x &= (1ULL << (8 * left)) - 1;   /* keep the token's first bytes (memory order is string order) */
            }
            memcpy(dst + k, &x, 8);
        }
        return;
    }
#endif
    memcpy(dst, src, (size_t)len);
    memset(dst + len, 0, (size_t)(width - len));
}

/* Where split_chunk puts a line's tokens, and what it has seen so far. */
typedef struct {
    Py_ssize_t n;   /* the chunk's bytes */
    int value_field, integer;
    Py_ssize_t max_line, max_id, previous_first, q_max, d_max;
    void *values;
    unsigned char *q_out, *d_out;   /* each line's qid and docno, NUL padded to these widths (those that fit) */
    Py_ssize_t q_width, d_width;
} Columns;

/* Token number field of line `line`, p[start:start + len], into its column; 0 when the chunk is not taken. */
static inline int take_token(Columns *c, const unsigned char *p, int field, int value_field, Py_ssize_t line,
                             Py_ssize_t start, Py_ssize_t len)
{
    if (field == 0) {
        /* the numpy parse's line bound (_lines_within_bound): from one line's first token to the next */
        if (line == 0 ? start > c->max_line : start - c->previous_first > c->max_line + 1)
            return 0;
        c->previous_first = start;
        if (len > c->max_id)
            return 0;
        if (len > c->q_max)
            c->q_max = len;
        if (len <= c->q_width)
            copy_padded(c->q_out + line * c->q_width, p + start, len, c->q_width, start + c->q_width <= c->n);
    } else if (field == 2) {
        if (len > c->max_id)
            return 0;
        if (len > c->d_max)
            c->d_max = len;
        if (len <= c->d_width)
            copy_padded(c->d_out + line * c->d_width, p + start, len, c->d_width, start + c->d_width <= c->n);
    } else if (field == value_field) {
        double *real = (double *)c->values + line;
        int64_t *whole = (int64_t *)c->values + line;
        return (start + 8 <= c->n && parse_short_number(p + start, len, c->integer, real, whole)) ||
               parse_number(p + start, len, c->integer, real, whole);
    }
    return 1;
}

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define LINE_MASKS 1
/* The 64 bytes at p as bit masks (bit k: byte k): newlines, separators (blanks and newlines), and bytes of class
 * OTHER (neither a blank, a newline nor a token byte).  16 bytes per step with SSE2, x86-64's baseline. */
static inline void line_masks(const unsigned char *p, uint64_t *newline, uint64_t *separator, uint64_t *other)
{
    const __m128i nl = _mm_set1_epi8('\n'), space = _mm_set1_epi8(' '), to_low = _mm_set1_epi8((char)(128 - 9)),
                  below = _mm_set1_epi8((char)(-128 + 5)), blank_or_less = _mm_set1_epi8(32),
                  del = _mm_set1_epi8(127), hash = _mm_set1_epi8('#');
    uint64_t n = 0, sep = 0, bad = 0;
    int k;
    for (k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        __m128i is_nl = _mm_cmpeq_epi8(x, nl);
        __m128i nine_to_13 = _mm_cmplt_epi8(_mm_add_epi8(x, to_low), below);   /* \t \n \v \f \r */
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(x, space), _mm_andnot_si128(is_nl, nine_to_13));
        __m128i token = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(x, del), _mm_cmpeq_epi8(x, hash)),
                                         _mm_cmpgt_epi8(x, blank_or_less));   /* signed: bytes >= 128 are not */
        uint64_t m_nl = (uint16_t)_mm_movemask_epi8(is_nl), m_blank = (uint16_t)_mm_movemask_epi8(blank),
                 m_token = (uint16_t)_mm_movemask_epi8(token);
        n |= m_nl << (16 * k);
        sep |= (m_nl | m_blank) << (16 * k);
        bad |= (~(m_nl | m_blank | m_token) & 0xFFFF) << (16 * k);
    }
    *newline = n;
    *separator = sep;
    *other = bad;
}
#endif

#ifdef LINE_MASKS
/* A line's nfields tokens from the bit masks of their starts and ends (the byte after each): 0 when it has fewer or
 * more, or take_token refuses one. */
static inline __attribute__((always_inline)) int masked_tokens(Columns *c, const unsigned char *p, Py_ssize_t i,
                                                               Py_ssize_t line, uint64_t starts, uint64_t ends,
                                                               const int nfields, const int value_field)
{
    int field;
    for (field = 0; field < nfields; field++) {
        int a, z;
        if (!starts)
            return 0;   /* fewer tokens than fields */
        a = __builtin_ctzll(starts);
        z = __builtin_ctzll(ends);
        starts &= starts - 1;
        ends &= ends - 1;
        if ((field == 0 || field == 2 || field == value_field) &&
            !take_token(c, p, field, value_field, line, i + a, z - a))
            return 0;
    }
    return starts == 0;   /* else more */
}
#endif

/* One pass over the chunk.  Returns the number of lines, -1 when the chunk is not of the accepted shape, or -2 when
 * it has more than capacity lines.
 * A line of under 64 bytes (with 64 bytes readable) is split from bit masks of its bytes, each token's start and
 * end found with a count of trailing zeros, so no token's end waits for the previous one's bytes; any other line
 * byte by byte, the same checks in the same order of tokens. */
static Py_ssize_t split_chunk(const unsigned char *p, Py_ssize_t n, int nfields, Py_ssize_t capacity,
                              Columns *columns)
{
    Columns c = *columns;
    Py_ssize_t i = 0, line = 0;
    if (n == 0 || p[n - 1] != '\n')   /* so every scan below stops at a newline before the end */
        return -1;
    while (i < n) {
        int field = 0;
        if (line == capacity)
            return -2;   /* more lines than the caller made room for */
#ifdef LINE_MASKS
        if (i + 64 <= n) {
            uint64_t newline, separator, other;
            line_masks(p + i, &newline, &separator, &other);
            if (newline) {
                int end = __builtin_ctzll(newline);
                uint64_t inside = (1ULL << end) - 1;   /* the line's bytes before its newline (end <= 63) */
                uint64_t token = ~separator & inside;
                uint64_t starts = token & ~(token << 1), ends = ~token & (token << 1) & ((inside << 1) | 1);
                if (other & inside)
                    return -1;   /* the byte by byte scan declines these lines too */
                /* a run's and a qrels file's layouts as constants, so that the compiler unrolls the fields */
                if (!(nfields == 6 && c.value_field == 4 ? masked_tokens(&c, p, i, line, starts, ends, 6, 4) :
                      nfields == 4 && c.value_field == 3 ? masked_tokens(&c, p, i, line, starts, ends, 4, 3) :
                      masked_tokens(&c, p, i, line, starts, ends, nfields, c.value_field)))
                    return -1;
                i += end + 1;
                line++;
                continue;
            }
        }
#endif
        for (;;) {
            Py_ssize_t start;
            while (byte_class[p[i]] == BLANK)
                i++;
            if (byte_class[p[i]] == NEWLINE) {
                if (field != nfields)
                    return -1;
                i++;
                break;
            }
            if (byte_class[p[i]] != TOKEN || field == nfields)
                return -1;
            start = i;
            i = token_end(p, i, n);
            if (!take_token(&c, p, field, c.value_field, line, start, i - start))
                return -1;
            field++;
        }
        line++;
    }
    if (n - c.previous_first > c.max_line + 1)
        return -1;
    *columns = c;
    return line;
}

static PyObject *split(PyObject *self, PyObject *args)
{
    Py_buffer data, values, q_out, d_out;
    int nfields, value_field, integer;
    Py_ssize_t max_line, max_id, lines, capacity, q_width, d_width;
    Columns c;
    if (!PyArg_ParseTuple(args, "y*iipnnw*w*nw*n", &data, &nfields, &value_field, &integer, &max_line, &max_id,
                          &values, &q_out, &q_width, &d_out, &d_width))
        return NULL;
    capacity = values.len / 8;
    if (nfields < 3 || value_field < 1 || value_field >= nfields || value_field == 2 || q_width < 0 || d_width < 0 ||
        q_out.len < q_width * capacity || d_out.len < d_width * capacity) {
        PyBuffer_Release(&data);
        PyBuffer_Release(&values);
        PyBuffer_Release(&q_out);
        PyBuffer_Release(&d_out);
        PyErr_SetString(PyExc_ValueError, "split: bad layout or buffer sizes");
        return NULL;
    }
    c = (Columns){data.len, value_field, integer, max_line, max_id, 0, 0, 0, values.buf, q_out.buf, d_out.buf,
                  q_width, d_width};
    Py_BEGIN_ALLOW_THREADS
    lines = split_chunk((const unsigned char *)data.buf, data.len, nfields, capacity, &c);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    PyBuffer_Release(&values);
    PyBuffer_Release(&q_out);
    PyBuffer_Release(&d_out);
    if (lines == -2)
        Py_RETURN_FALSE;
    if (lines < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("nnn", lines, c.q_max, c.d_max);
}

/* readers._mix_words' key of one (topic index, row of width native uint64 words): the same uint64 arithmetic in the
 * same order, so the same bits. */
static inline uint64_t pair_key(int64_t topic, const unsigned char *w, Py_ssize_t width)
{
    const uint64_t ct = 0xD6E8FEB86659FD93ULL;
    uint64_t k = (uint64_t)topic * ct + ct;
    Py_ssize_t j;
    for (j = 0; j < width; j++) {
        uint64_t c = (0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL * (uint64_t)j) | 1, x;
        memcpy(&x, w + 8 * j, 8);
        x *= c;
        x ^= x >> 29;
        x *= 0x94D049BB133111EBULL;
        k += x;
    }
    k ^= k >> 31;
    k *= 0xBF58476D1CE4E5B9ULL;
    k ^= k >> 29;
    return k;
}

/* readers._mix_words in one pass: out[r] = the 64-bit key of (topic_idx[r], the width words of row r), the same
 * uint64 arithmetic (wrapping multiplications, xor-shifts) in the same order, so the same keys bit for bit. */
static PyObject *mix_keys(PyObject *self, PyObject *args)
{
    Py_buffer topics, words, out;
    Py_ssize_t width, count, r;
    int ok;
    if (!PyArg_ParseTuple(args, "y*y*nw*", &topics, &words, &width, &out))
        return NULL;
    count = topics.len / 8;
    ok = width >= 0 && out.len >= 8 * count && words.len >= 8 * width * count;
    if (ok) {
        const int64_t *t = (const int64_t *)topics.buf;
        const unsigned char *w = (const unsigned char *)words.buf;
        unsigned char *o = (unsigned char *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (r = 0; r < count; r++) {
            uint64_t k = pair_key(t[r], w + 8 * width * r, width);
            memcpy(o + 8 * r, &k, 8);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&topics);
    PyBuffer_Release(&words);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "mix_keys: buffer sizes do not match");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The two tables below are open addressing with linear probing from a key's top bits (pair_keys' keys are
 * well mixed, so equal top bits are as rare as for random numbers), a few times larger than what they hold: most
 * probes end at the first slot, a branch the processor predicts. */
static int table_bits(Py_ssize_t rows, int spare)
{
    int bits = 4;
    while (bits < 40 && ((Py_ssize_t)1 << bits) < ((Py_ssize_t)1 << spare) * rows)
        bits++;
    return bits;
}

/* Blocks of rows as the callers pass them: starts in increasing order, the first at row 0, all inside the n rows. */
static int blocks_in_rows(const int64_t *starts, Py_ssize_t blocks, Py_ssize_t n)
{
    Py_ssize_t b;
    for (b = 0; b < blocks; b++)
        if (b == 0 ? starts[b] != 0 : starts[b] <= starts[b - 1] || starts[b] >= n)
            return 0;
    return 1;
}

typedef struct {
    uint64_t key;
    int64_t row;   /* + 1; 0 is empty */
} KeySlot;

/* join_blocks' join: every (i, p) with keys[i] == table_keys[p], i ascending, and for one i the p in ascending order (equal
 * keys share their first slot and were inserted in that order, so a probe meets them in that order); the count,
 * or -1 when more than capacity pairs (the caller then joins with numpy).  Equal keys are candidates only: the caller
 * compares the bytes, as for numpy's join. */
static Py_ssize_t join_pairs(const uint64_t *keys, Py_ssize_t n, const uint64_t *tkeys, Py_ssize_t m,
                             int64_t *out_i, int64_t *out_p, Py_ssize_t capacity)
{
    int bits = table_bits(m, 3), shift = 64 - bits;
    size_t mask = ((size_t)1 << bits) - 1, h;
    Py_ssize_t r, p, found = 0;
    KeySlot *slot = calloc(mask + 1, sizeof(KeySlot));
    if (slot == NULL)
        return -2;
    for (p = 0; p < m; p++) {
        for (h = (size_t)(tkeys[p] >> shift); slot[h].row; h = (h + 1) & mask)
            ;
        slot[h].key = tkeys[p];
        slot[h].row = p + 1;
    }
    for (r = 0; r < n; r++) {
        uint64_t key = keys[r];
        for (h = (size_t)(key >> shift); slot[h].row; h = (h + 1) & mask) {
            if (slot[h].key == key) {
                if (found == capacity) {
                    free(slot);
                    return -1;
                }
                out_i[found] = r;
                out_p[found++] = slot[h].row - 1;
            }
        }
    }
    free(slot);
    return found;
}

/* join_blocks' check: the first row (in row order) whose width words equal those of an earlier row of its block (blocks:
 * rows starts[b] to starts[b + 1], the last one to n), or -1.  Keys say which rows may be equal; the words decide.
 * One table for all blocks, never cleared: a slot holding a row of an earlier block (< the block's first row) is
 * empty for this one, so every probe sequence of the block is the one a fresh table would give. */
static Py_ssize_t repeat_in_blocks(const uint64_t *keys, Py_ssize_t n, const int64_t *starts, Py_ssize_t blocks,
                                   const uint64_t *words, Py_ssize_t width)
{
    Py_ssize_t b, r, longest = 0;
    int bits, shift;
    size_t mask, h;
    KeySlot *slot;
    for (b = 0; b < blocks; b++) {
        Py_ssize_t end = b + 1 < blocks ? starts[b + 1] : n;
        if (end - starts[b] > longest)
            longest = end - starts[b];
    }
    bits = table_bits(longest, 2);
    shift = 64 - bits;
    mask = ((size_t)1 << bits) - 1;
    slot = calloc(mask + 1, sizeof(KeySlot));
    if (slot == NULL)
        return -2;
    for (b = 0; b < blocks; b++) {
        Py_ssize_t a = starts[b], end = b + 1 < blocks ? starts[b + 1] : n;
        for (r = a; r < end; r++) {
            uint64_t key = keys[r];
            for (h = (size_t)(key >> shift); slot[h].row > a; h = (h + 1) & mask) {
                if (slot[h].key == key &&
                    memcmp(words + (slot[h].row - 1) * width, words + r * width, 8 * (size_t)width) == 0) {
                    free(slot);
                    return r;
                }
            }
            slot[h].key = key;
            slot[h].row = r + 1;
        }
    }
    free(slot);
    return -1;
}

/* join_blocks: the streamed join of a chunk of whole topics in one call: a repeated docno looked for in each block
 * (repeat_in_blocks), then every (row, p) with keys[row] == table_keys[p] (join_pairs).  The count of pairs, -1 when a
 * docno repeats in a block, -2 when out_i, out_p hold too few pairs (numpy then decides). */
static PyObject *join_blocks(PyObject *self, PyObject *args)
{
    Py_buffer keys, starts, words, tkeys, out_i, out_p;
    Py_ssize_t width, n, blocks, capacity, found = 0;
    int ok;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*w*w*", &keys, &starts, &words, &width, &tkeys, &out_i, &out_p))
        return NULL;
    n = keys.len / 8;
    blocks = starts.len / 8;
    capacity = out_i.len / 8 < out_p.len / 8 ? out_i.len / 8 : out_p.len / 8;
    ok = width >= 0 && words.len >= 8 * width * n && n > 0 && blocks > 0 &&
         blocks_in_rows((const int64_t *)starts.buf, blocks, n);
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        Py_ssize_t repeat = repeat_in_blocks((const uint64_t *)keys.buf, n, (const int64_t *)starts.buf, blocks,
                                             (const uint64_t *)words.buf, width);
        if (repeat >= 0)
            found = -1;
        else if (repeat == -2)
            found = -3;   /* out of memory */
        else {
            found = join_pairs((const uint64_t *)keys.buf, n, (const uint64_t *)tkeys.buf, tkeys.len / 8,
                               (int64_t *)out_i.buf, (int64_t *)out_p.buf, capacity);
            found = found == -1 ? -2 : found == -2 ? -3 : found;
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&keys);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&words);
    PyBuffer_Release(&tkeys);
    PyBuffer_Release(&out_i);
    PyBuffer_Release(&out_p);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "join_blocks: blocks or buffer sizes do not match");
        return NULL;
    }
    if (found == -3)
        return PyErr_NoMemory();
    return PyLong_FromSsize_t(found);
}

/* presorted_ranks: ranks.topic_ranks for blocks of rows (one topic each, from starts[b]) already in non-increasing
 * score order: the 0-based rank in trec_eval's order (score descending, then docno descending) of each of rows is
 * its place in its block, moved inside its run of equal scores by the docnos (width words, compared as the bytes
 * they hold) that sort before it.  0 (nothing written) when a score rises inside a block, or a run of equal scores
 * is longer than max_tie (numpy's sort is then the better tool); else 1. */
static int ranks_in_blocks(const double *score, Py_ssize_t n, const int64_t *starts, Py_ssize_t blocks,
                           const unsigned char *words, Py_ssize_t width, const int64_t *rows, Py_ssize_t k,
                           Py_ssize_t max_tie, int64_t *out)
{
    Py_ssize_t b, r, j;
    size_t bytes = 8 * (size_t)width;
    for (b = 0; b < blocks; b++) {
        Py_ssize_t end = b + 1 < blocks ? starts[b + 1] : n;
        for (r = starts[b] + 1; r < end; r++)
            if (score[r] > score[r - 1])
                return 0;
    }
    for (j = 0; j < k; j++) {
        Py_ssize_t row = rows[j], low = 0, high = blocks - 1, first, end, lo, hi, t, before = 0;
        double s = score[row];
        while (low < high) {   /* the block holding row: the last start <= row */
            Py_ssize_t mid = (low + high + 1) / 2;
            if (starts[mid] <= row)
                low = mid;
            else
                high = mid - 1;
        }
        first = starts[low];
        end = low + 1 < blocks ? starts[low + 1] : n;
        for (lo = row; lo > first && score[lo - 1] == s && row - lo < max_tie; lo--)
            ;
        for (hi = row + 1; hi < end && score[hi] == s && hi - lo <= max_tie; hi++)
            ;
        if (hi - lo > max_tie)
            return 0;
        for (t = lo; t < hi; t++)
            before += t != row && memcmp(words + t * bytes, words + row * bytes, bytes) > 0;
        out[j] = lo - first + before;
    }
    return 1;
}

static PyObject *presorted_ranks(PyObject *self, PyObject *args)
{
    Py_buffer score, starts, words, rows, out;
    Py_ssize_t n, blocks, width, k, max_tie, j;
    int ok, done = 0;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*nw*", &score, &starts, &words, &width, &rows, &max_tie, &out))
        return NULL;
    n = score.len / 8;
    blocks = starts.len / 8;
    k = rows.len / 8;
    ok = width >= 0 && max_tie >= 1 && words.len >= 8 * width * n && out.len >= 8 * k && n > 0 && blocks > 0;
    ok = ok && blocks_in_rows((const int64_t *)starts.buf, blocks, n);
    for (j = 0; ok && j < k; j++)
        ok = ((const int64_t *)rows.buf)[j] >= 0 && ((const int64_t *)rows.buf)[j] < n;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        done = ranks_in_blocks((const double *)score.buf, n, (const int64_t *)starts.buf, blocks,
                               (const unsigned char *)words.buf, width, (const int64_t *)rows.buf, k, max_tie,
                               (int64_t *)out.buf);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&score);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&words);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "presorted_ranks: blocks, rows or buffer sizes do not match");
        return NULL;
    }
    return PyBool_FromLong(done);
}

/* topic_docno_order: numpy's lexsort((docnos, topic)) of qrels rows (read_qrels' order) without comparing strings across
 * topics: a counting sort by topic, then each topic's rows sorted by their width docno bytes (memcmp: numpy's order of
 * an S array), ties by row, so the order is lexsort's (stable) whatever the rows hold.  Insertion sort for a topic of
 * up to 24 rows (a qrels topic's usual size), a merge sort through tmp beyond. */
static int docno_before(const unsigned char *docnos, Py_ssize_t width, int64_t a, int64_t b)
{
    int c = memcmp(docnos + a * width, docnos + b * width, (size_t)width);
    return c < 0 || (c == 0 && a < b);
}

static void sort_rows(int64_t *rows, int64_t *tmp, Py_ssize_t n, const unsigned char *docnos, Py_ssize_t width)
{
    Py_ssize_t i, j, half, a, b;
    if (n <= 24) {
        for (i = 1; i < n; i++) {
            int64_t row = rows[i];
            for (j = i; j > 0 && docno_before(docnos, width, row, rows[j - 1]); j--)
                rows[j] = rows[j - 1];
            rows[j] = row;
        }
        return;
    }
    half = n / 2;
    sort_rows(rows, tmp, half, docnos, width);
    sort_rows(rows + half, tmp, n - half, docnos, width);
    memcpy(tmp, rows, (size_t)half * sizeof(int64_t));
    for (i = 0, a = 0, b = half; a < half; i++)   /* rows[i] never overtakes rows[b]: i <= b */
        rows[i] = (b < n && docno_before(docnos, width, rows[b], tmp[a])) ? rows[b++] : tmp[a++];
}

static PyObject *topic_docno_order(PyObject *self, PyObject *args)
{
    Py_buffer topic, docnos, out;
    Py_ssize_t n, width, topics, r, t;
    int64_t *start = NULL, *tmp = NULL;
    int ok;
    if (!PyArg_ParseTuple(args, "y*y*nnw*", &topic, &docnos, &width, &topics, &out))
        return NULL;
    n = topic.len / 8;
    ok = width >= 1 && topics >= 1 && docnos.len >= width * n && out.len >= 8 * n;
    for (r = 0; ok && r < n; r++)
        ok = ((const int64_t *)topic.buf)[r] >= 0 && ((const int64_t *)topic.buf)[r] < topics;
    if (ok) {
        start = calloc((size_t)topics + 1, sizeof(int64_t));
        tmp = malloc(((size_t)n / 2 + 1) * sizeof(int64_t));
    }
    if (ok && start != NULL && tmp != NULL) {
        const int64_t *tp = (const int64_t *)topic.buf;
        int64_t *order = (int64_t *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (r = 0; r < n; r++)
            start[tp[r] + 1]++;
        for (t = 0; t < topics; t++)
            start[t + 1] += start[t];
        for (r = 0; r < n; r++)   /* rows of a topic in row order: start[t] ends at topic t's end */
            order[start[tp[r]]++] = r;
        for (t = topics; t > 0; t--)
            start[t] = start[t - 1];
        start[0] = 0;
        for (t = 0; t < topics; t++)
            sort_rows(order + start[t], tmp, start[t + 1] - start[t], (const unsigned char *)docnos.buf, width);
        Py_END_ALLOW_THREADS
    }
    free(start);
    free(tmp);
    PyBuffer_Release(&topic);
    PyBuffer_Release(&docnos);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "topic_docno_order: a topic index out of range or buffer sizes do not match");
        return NULL;
    }
    if (start == NULL || tmp == NULL)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"split", split, METH_VARARGS,
     "split(data, nfields, value_field, integer, max_line, max_id, values, q_out, q_width, d_out, d_width)\n"
     "-> (lines, q_max, d_max), None (not taken) or False (more lines than capacity).  values: capacity numbers; q_out, d_out: each line's qid and docno NUL\n"
     "padded to q_width and d_width bytes where it fits (all did when q_max <= q_width and d_max <= d_width)."},
    {"mix_keys", mix_keys, METH_VARARGS,
     "mix_keys(topic_idx, words, width, out): out[r] = readers._mix_words' key of int64 topic_idx[r] and the width\n"
     "native uint64 words of row r (C order), bit for bit."},
    {"join_blocks", join_blocks, METH_VARARGS,
     "join_blocks(keys, starts, words, width, table_keys, out_i, out_p) -> count: every (row, p) with keys[row] ==\n"
     "table_keys[p], i ascending, then p; -1 when a row's width uint64 words repeat an earlier row's of its block\n"
     "(blocks from starts; equal keys are candidates, the words decide), -2 when out_i, out_p hold too few."},
    {"presorted_ranks", presorted_ranks, METH_VARARGS,
     "presorted_ranks(score, starts, words, width, rows, max_tie, out) -> True with out[j] = the rank of rows[j] in its\n"
     "block (trec_eval's order), or False when a score rises in a block or ties run longer than max_tie."},
    {"topic_docno_order", topic_docno_order, METH_VARARGS,
     "topic_docno_order(topic, docnos, width, topics, out): out = numpy.lexsort((docnos, topic)) for int64 topic\n"
     "indices in [0, topics) and docnos of width bytes each (an S<width> array's buffer)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tokenize", NULL, -1, methods};

PyMODINIT_FUNC PyInit__tokenize(void)
{
    int c;
    for (c = 33; c < 127; c++)
        byte_class[c] = TOKEN;
    byte_class['#'] = OTHER;   /* a comment: the numpy parse and trec_eval's reading notes decide */
    byte_class['\t'] = byte_class['\v'] = byte_class['\f'] = byte_class['\r'] = byte_class[' '] = BLANK;
    byte_class['\n'] = NEWLINE;
    return PyModule_Create(&module);
}
