/* The camera step: the ChArUco board sheet, and intrinsics measured from photos of it. */
#include "calibration.h"

#include "cv_shim_geometry.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A4_LONG_MM 297.0
#define A4_SHORT_MM 210.0
#define PAGE_MARGIN_MM 10.0
#define CAPTION_MM 22.0 /* below the board */

void calibration_board_config_default(calibration_board_config *config)
{
    config->squares_x = 7;
    config->squares_y = 5;
    config->square_mm = 30.0;
    config->marker_mm = 22.0;
    config->dpi = 300;
}

static int mm_to_px(double mm, int dpi) { return (int)lround(mm * dpi / 25.4); }

static cv_geom_charuco charuco_of(const calibration_board_config *config)
{
    return (cv_geom_charuco){config->squares_x, config->squares_y, config->square_mm,
                             config->marker_mm};
}

static bool board_valid(const calibration_board_config *config)
{
    return config->squares_x >= 3 && config->squares_y >= 3 &&
           config->squares_x * config->squares_y / 2 <= 100 && /* 5x5_100 holds 100 markers */
           config->square_mm > 0 && config->marker_mm > 0 &&
           config->marker_mm < config->square_mm * 0.9;
}

vision_status calibration_board_sheet(const calibration_board_config *config,
                                      vision_image *sheet)
{
    memset(sheet, 0, sizeof *sheet);
    if (!board_valid(config) || config->dpi < 72 || config->dpi > 1200 ||
        config->squares_x * config->square_mm > A4_LONG_MM - 2 * PAGE_MARGIN_MM ||
        config->squares_y * config->square_mm >
            A4_SHORT_MM - 2 * PAGE_MARGIN_MM - CAPTION_MM)
        return VISION_BAD_INPUT;
    int dpi = config->dpi;
    cv_geom_charuco board = charuco_of(config);
    vision_image drawn;
    char detail[256];
    vision_status status =
        cv_geom_charuco_draw(&board, mm_to_px(config->square_mm, dpi), &drawn, detail,
                             sizeof detail);
    if (status != VISION_OK)
        return status;
    status = vision_image_new(mm_to_px(A4_LONG_MM, dpi), mm_to_px(A4_SHORT_MM, dpi), 1, sheet);
    if (status != VISION_OK) {
        vision_image_free(&drawn);
        return status;
    }
    vision_fill(sheet, 0, 0, sheet->width, sheet->height, 255);
    int left = (sheet->width - drawn.width) / 2, top = mm_to_px(PAGE_MARGIN_MM, dpi);
    for (int y = 0; y < drawn.height; y++)
        memcpy(sheet->pixels + (size_t)(top + y) * (size_t)sheet->stride + (size_t)left,
               drawn.pixels + (size_t)y * (size_t)drawn.stride, (size_t)drawn.width);
    vision_image_free(&drawn);

    int text_height = mm_to_px(3.5, dpi), x = left;
    int y = top + mm_to_px(config->squares_y * config->square_mm, dpi) + 2 * text_height;
    char line[160];
    snprintf(line, sizeof line,
             "tablescribe camera board: ChArUco %d x %d squares of %.0f mm, markers %.0f mm "
             "(ArUco 5x5_100).",
             config->squares_x, config->squares_y, config->square_mm, config->marker_mm);
    vision_draw_text(sheet, line, x, y, text_height);
    vision_draw_text(sheet,
                     "Lay it flat, then photograph it 10 or more times from different angles and "
                     "distances,",
                     x, y + 2 * text_height, text_height);
    vision_draw_text(sheet, "filling much of the picture: tablescribe calibrate camera --image ...",
                     x, y + 4 * text_height, text_height);
    return VISION_OK;
}

vision_status calibration_camera(const calibration_board_config *board,
                                 const vision_image *views, int view_count, int *corners_found,
                                 calibration_camera_result *result, char *error, size_t size)
{
    if (!board_valid(board) || view_count < 0) {
        snprintf(error, size, "not a camera board: %d x %d squares of %g mm, markers %g mm",
                 board->squares_x, board->squares_y, board->square_mm, board->marker_mm);
        return VISION_BAD_INPUT;
    }
    for (int v = 1; v < view_count; v++)
        if (views[v].width != views[0].width || views[v].height != views[0].height) {
            snprintf(error, size,
                     "view %d is %d x %d pixels, view 1 %d x %d: the views must come from one "
                     "camera at one size",
                     v + 1, views[v].width, views[v].height, views[0].width, views[0].height);
            return VISION_BAD_INPUT;
        }
    cv_geom_charuco charuco = charuco_of(board);
    int capacity = (board->squares_x - 1) * (board->squares_y - 1);
    size_t room = (size_t)capacity * (size_t)(view_count > 0 ? view_count : 1);
    vision_point *corners = malloc(room * sizeof *corners);
    int *ids = malloc(room * sizeof *ids), *counts = malloc((size_t)(view_count + 1) * sizeof *counts);
    vision_status status = corners && ids && counts ? VISION_OK : VISION_NOMEM;
    int used = 0, total = 0;
    char detail[256];
    for (int v = 0; status == VISION_OK && v < view_count; v++) {
        int count = 0;
        status = cv_geom_charuco_detect(&charuco, &views[v], corners + total, ids + total,
                                        capacity, &count, detail, sizeof detail);
        if (status != VISION_OK) {
            snprintf(error, size, "view %d: %s", v + 1, detail);
            break;
        }
        if (corners_found)
            corners_found[v] = count;
        if (count >= CALIBRATION_CAMERA_CORNERS_MIN) {
            counts[used++] = count;
            total += count;
        }
    }
    if (status == VISION_NOMEM)
        snprintf(error, size, "out of memory");
    if (status == VISION_OK && used < CALIBRATION_CAMERA_VIEWS_MIN) {
        snprintf(error, size,
                 "the board shows in %d usable view%s of %d (%d or more of its %d corners "
                 "each); %d are needed: photograph the whole board from different angles",
                 used, used == 1 ? "" : "s", view_count, CALIBRATION_CAMERA_CORNERS_MIN,
                 capacity, CALIBRATION_CAMERA_VIEWS_MIN);
        status = VISION_BAD_INPUT;
    }
    if (status == VISION_OK) {
        calibration_camera_result made = {.views_used = used, .corners_used = total};
        status = cv_geom_charuco_calibrate(&charuco, used, counts, corners, ids, views[0].width,
                                           views[0].height, &made.camera, &made.rms_px, detail,
                                           sizeof detail);
        if (status != VISION_OK)
            snprintf(error, size, "the views do not give a camera: %s", detail);
        else
            *result = made;
    }
    free(corners);
    free(ids);
    free(counts);
    return status;
}
