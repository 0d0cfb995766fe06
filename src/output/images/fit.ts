/**
 * How many character cells a picture takes: fitted into its box, never scaled up. A cell is about twice
 * as tall as wide, so a pixel column is a cell and two pixel rows a line, whatever the protocol.
 */

export interface CellBox {
  columns: number;
  rows: number;
}

/** The drawn size of a `width`×`height`-pixel picture within `box`: cells, and the pixel rows they show (two a line). */
export function fitCells(width: number, height: number, box: CellBox): CellBox & { pixelRows: number } {
  const columns = Math.max(1, Math.min(width, box.columns, Math.floor((2 * box.rows * width) / height)));
  const pixelRows = Math.max(1, Math.min(2 * box.rows, Math.round((height * columns) / width)));
  return { columns, rows: Math.ceil(pixelRows / 2), pixelRows };
}
