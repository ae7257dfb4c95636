// The renderer of each game, by game id (see base.js for what a renderer does).
import { CourtPiece } from './court-piece.js';
import { CourtPiece2p } from './court-piece-2p.js';
import { Goat } from './goat.js';

const RENDERERS = { 'court-piece': CourtPiece, 'court-piece-2p': CourtPiece2p, goat: Goat };

/** The renderer for a table of this game (Court Piece's for a game the page does not know). */
export function rendererFor(game, table) {
  return new (RENDERERS[game] || CourtPiece)(table);
}
