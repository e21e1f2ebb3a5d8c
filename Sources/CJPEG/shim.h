#ifndef BILLFOLD_CJPEG_SHIM_H
#define BILLFOLD_CJPEG_SHIM_H
// libjpeg(-turbo) itself, for what gdk-pixbuf's loader does not offer: decoding at any n/8 of
// the stored size (gdk-pixbuf decodes at 1/2, 1/4 or 1/8 and then resamples). libjpeg reports
// a fatal error by calling error_exit, which must not return: it jumps back here.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    int ended_early;
} bf_jpeg_error;

static inline void bf_jpeg_fail(j_common_ptr cinfo) {
    longjmp(((bf_jpeg_error *)cinfo->err)->jump, 1);
}

// Warnings (such as stray bytes between markers, common in cameras' files) are not failures,
// as in gdk-pixbuf; a file cut short is, since libjpeg would fill the rest with grey.
static inline void bf_jpeg_warn(j_common_ptr cinfo, int level) {
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) ((bf_jpeg_error *)cinfo->err)->ended_early = 1;
}

// libjpeg's stdio source reads 4 KiB at a time, and its fast Huffman decoder only runs while
// 512 bytes or more are buffered: reading 64 KiB at a time decodes a photo some 4 % faster.
enum { BF_JPEG_READ_SIZE = 1 << 16 };

typedef struct {
    struct jpeg_source_mgr manager;
    FILE *file;
    JOCTET *buffer;
} bf_jpeg_source;

static inline void bf_jpeg_source_start(j_decompress_ptr cinfo) { (void)cinfo; }
static inline void bf_jpeg_source_end(j_decompress_ptr cinfo) { (void)cinfo; }

static inline boolean bf_jpeg_source_fill(j_decompress_ptr cinfo) {
    bf_jpeg_source *source = (bf_jpeg_source *)cinfo->src;
    size_t count = fread(source->buffer, 1, BF_JPEG_READ_SIZE, source->file);
    if (count == 0) {
        // As libjpeg's own sources do at the end of the file: warn (bf_jpeg_warn notes it),
        // then end the picture.
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->buffer[0] = 0xFF;
        source->buffer[1] = JPEG_EOI;
        count = 2;
    }
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = count;
    return TRUE;
}

static inline void bf_jpeg_source_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *manager = cinfo->src;
    if (count <= 0) return;
    while (count > (long)manager->bytes_in_buffer) {
        count -= (long)manager->bytes_in_buffer;
        (void)bf_jpeg_source_fill(cinfo);
    }
    manager->next_input_byte += count;
    manager->bytes_in_buffer -= (size_t)count;
}

// Reads `file` through a 64 KiB buffer that libjpeg frees with the decompressor.
static inline void bf_jpeg_source_open(j_decompress_ptr cinfo, FILE *file) {
    bf_jpeg_source *source = (bf_jpeg_source *)(*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT,
                                                                          sizeof(bf_jpeg_source));
    source->buffer = (JOCTET *)(*cinfo->mem->alloc_large)((j_common_ptr)cinfo, JPOOL_PERMANENT, BF_JPEG_READ_SIZE);
    source->file = file;
    source->manager.init_source = bf_jpeg_source_start;
    source->manager.fill_input_buffer = bf_jpeg_source_fill;
    source->manager.skip_input_data = bf_jpeg_source_skip;
    source->manager.resync_to_restart = jpeg_resync_to_restart;
    source->manager.term_source = bf_jpeg_source_end;
    source->manager.bytes_in_buffer = 0;
    source->manager.next_input_byte = NULL;
    cinfo->src = &source->manager;
}

// Decodes the JPEG file at `path` at scale_num/8 of its stored size (scale_num 1…8) into
// packed 8-bit RGB rows of `*width` × `*height` pixels, in stored orientation. Returns NULL
// when the file cannot be read, is damaged or is cut short; free() the pixels.
static inline unsigned char *bf_jpeg_decode_scaled(const char *path, int scale_num, int *width, int *height) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    struct jpeg_decompress_struct cinfo;
    bf_jpeg_error error;
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile scratch = NULL;
    cinfo.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = bf_jpeg_fail;
    error.manager.emit_message = bf_jpeg_warn;
    error.ended_early = 0;
    jpeg_create_decompress(&cinfo);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        fclose(file);
        free(pixels);
        free(scratch);
        return NULL;
    }
    bf_jpeg_source_open(&cinfo, file);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = (unsigned int)scale_num;
    cinfo.scale_denom = 8;
    // libjpeg has no CMYK to RGB conversion: such files (Adobe's, inverted) are turned here,
    // as gdk-pixbuf does.
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 3;
    pixels = malloc(stride * cinfo.output_height);
    scratch = cmyk ? malloc((size_t)cinfo.output_width * 4) : NULL;
    if (!pixels || (cmyk && !scratch)) longjmp(error.jump, 1);
    while (cinfo.output_scanline < cinfo.output_height) {
        unsigned char *out = pixels + stride * cinfo.output_scanline;
        JSAMPROW row = cmyk ? scratch : out;
        jpeg_read_scanlines(&cinfo, &row, 1);
        for (JDIMENSION x = 0; cmyk && x < cinfo.output_width; x++) {
            unsigned int k = scratch[4 * x + 3];
            for (int i = 0; i < 3; i++) out[3 * x + i] = (unsigned char)(scratch[4 * x + i] * k / 255);
        }
    }
    if (error.ended_early) longjmp(error.jump, 1);
    jpeg_finish_decompress(&cinfo);
    *width = (int)cinfo.output_width;
    *height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    fclose(file);
    free(scratch);
    return pixels;
}

// Encodes `height` rows of packed 8-bit RGB, `stride` bytes apart, as a baseline JPEG of
// `quality` with libjpeg's defaults (4:2:0): the same bytes as gdk-pixbuf's saver, without
// its copies (a fifth less time for a scaled photo). Returns NULL when libjpeg fails; free()
// the bytes.
static inline unsigned char *bf_jpeg_encode(const unsigned char *pixels, int width, int height, int stride,
                                            int quality, unsigned long *size) {
    struct jpeg_compress_struct cinfo;
    bf_jpeg_error error;
    // libjpeg writes both through the pointers it is given, also before a failure.
    unsigned char *volatile bytes = NULL;
    volatile unsigned long length = 0;
    cinfo.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = bf_jpeg_fail;
    jpeg_create_compress(&cinfo);
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(bytes);
        return NULL;
    }
    jpeg_mem_dest(&cinfo, (unsigned char **)&bytes, (unsigned long *)&length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)stride * cinfo.next_scanline);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *size = length;
    return bytes;
}
#endif
