// png.c: the smallest correct PNG writer: one IDAT holding a zlib stream of stored (uncompressed)
// deflate blocks (RFC 1950, RFC 1951 section 3.2.4), each scanline with filter type 0 (PNG
// specification, ISO/IEC 15948). Pictures are larger than compressed ones; nothing else is needed.
#include "png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc_init(void) {
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static uint32_t crc(uint32_t c, const uint8_t *p, size_t n) {
	c = ~c;
	for (size_t i = 0; i < n; i++)
		c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static void put32(uint8_t *p, uint32_t v) {
	p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = v;
}

// chunk writes one chunk: length, type, data, CRC of type and data.
static int chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n) {
	uint8_t head[8], tail[4];
	put32(head, n);
	memcpy(head + 4, type, 4);
	put32(tail, crc(crc((uint32_t)0, head + 4, 4), data, n));
	return fwrite(head, 1, 8, f) != 8 || (n && fwrite(data, 1, n, f) != n) || fwrite(tail, 1, 4, f) != 4 ? -1 : 0;
}

int png_write(const char *path, const void *rgba, uint32_t width, uint32_t height) {
	crc_init();
	size_t row = (size_t)width * 4 + 1, raw = row * height;
	size_t blocks = (raw + 65534) / 65535;
	size_t z = 2 + raw + blocks * 5 + 4;
	uint8_t *buf = malloc(raw + z);
	if (!buf)
		return -1;
	uint8_t *scan = buf, *zs = buf + raw;
	for (uint32_t y = 0; y < height; y++) {
		scan[y * row] = 0; // filter: none
		memcpy(scan + y * row + 1, (const uint8_t *)rgba + (size_t)y * width * 4, (size_t)width * 4);
	}
	size_t o = 0;
	zs[o++] = 0x78, zs[o++] = 0x01; // deflate, 32 KiB window, no dictionary, (0x7801 % 31 == 0)
	uint32_t a = 1, b = 0;          // Adler-32
	for (size_t i = 0; i < raw; i += 65535) {
		size_t n = raw - i < 65535 ? raw - i : 65535;
		zs[o++] = i + n == raw; // BFINAL on the last block, BTYPE 00: stored
		zs[o++] = n & 0xff, zs[o++] = n >> 8;
		zs[o++] = ~n & 0xff, zs[o++] = (~n >> 8) & 0xff;
		memcpy(zs + o, scan + i, n);
		for (size_t k = 0; k < n; k++) {
			a = (a + scan[i + k]) % 65521;
			b = (b + a) % 65521;
		}
		o += n;
	}
	put32(zs + o, b << 16 | a);
	o += 4;
	uint8_t ihdr[13];
	put32(ihdr, width);
	put32(ihdr + 4, height);
	ihdr[8] = 8, ihdr[9] = 6, ihdr[10] = 0, ihdr[11] = 0, ihdr[12] = 0; // 8-bit RGBA, no interlace
	static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	FILE *f = fopen(path, "wb");
	int err = !f || fwrite(sig, 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, 13) || chunk(f, "IDAT", zs, (uint32_t)o) ||
	          chunk(f, "IEND", NULL, 0);
	if (f && fclose(f) != 0)
		err = 1;
	free(buf);
	return err ? -1 : 0;
}
