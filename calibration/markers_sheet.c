#include "calibration.h"

#include <math.h>
#include <stdio.h>

#define A4_WIDTH_MM 210.0
#define A4_HEIGHT_MM 297.0

void calibration_sheet_config_default(calibration_sheet_config *config)
{
    config->marker_mm = 40.0;
    config->dpi = 300;
}

static int mm_to_px(double mm, int dpi) { return (int)lround(mm * dpi / 25.4); }

vision_status calibration_markers_sheet(const calibration_sheet_config *config,
                                        vision_image *sheet)
{
    /* 90 mm leaves room in a quarter of the page for the margin and the label. */
    if (!(config->marker_mm >= 10.0 && config->marker_mm <= 90.0) || config->dpi < 72 ||
        config->dpi > 1200)
        return VISION_BAD_INPUT;
    int dpi = config->dpi;
    vision_status status =
        vision_image_new(mm_to_px(A4_WIDTH_MM, dpi), mm_to_px(A4_HEIGHT_MM, dpi), 1, sheet);
    if (status != VISION_OK)
        return status;
    vision_fill(sheet, 0, 0, sheet->width, sheet->height, 255);

    static const char *const corners[] = {"top-left", "top-right", "bottom-right", "bottom-left"};
    /* Reading order on the sheet: 0 1 / 3 2, the corners as they lie on the mat. */
    static const int cell_of_id[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
    int side = mm_to_px(config->marker_mm, dpi);
    int text_height = mm_to_px(3.5, dpi);
    int cell_width = sheet->width / 2, cell_height = (sheet->height - mm_to_px(40, dpi)) / 2;
    for (int id = 0; id < 4 && status == VISION_OK; id++) {
        int x = cell_of_id[id][1] * cell_width + (cell_width - side) / 2;
        int y = mm_to_px(20, dpi) + cell_of_id[id][0] * cell_height + (cell_height - side) / 2;
        status = vision_draw_marker(sheet, id, x, y, side);
        char label[96];
        snprintf(label, sizeof label, "id %d  %s", id, corners[id]);
        vision_draw_text(sheet, label, x, y + side + 2 * text_height, text_height);
        snprintf(label, sizeof label, "side %.0f mm", config->marker_mm);
        vision_draw_text(sheet, label, x, y + side + 4 * text_height, text_height);
    }

    /* The ruler: when it does not measure 100 mm, the printer scaled the page. */
    int left = mm_to_px(20, dpi), bottom = sheet->height - mm_to_px(15, dpi);
    int ruler = mm_to_px(100, dpi), tick = mm_to_px(1, dpi);
    vision_fill(sheet, left, bottom, ruler, tick / 2 + 1, 0);
    for (int mm = 0; mm <= 100; mm += 10)
        vision_fill(sheet, left + mm_to_px(mm, dpi), bottom - 3 * tick, tick / 2 + 1, 3 * tick, 0);
    vision_draw_text(sheet, "tablescribe table markers, ArUco 4x4_50. Print at 100% scale: this line is 100 mm.",
                     left, bottom + 2 * text_height, text_height * 3 / 4);
    if (status != VISION_OK)
        vision_image_free(sheet);
    return status;
}
