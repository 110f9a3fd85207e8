"""VASSAL modules: a thin typed mirror of VASSAL's components and traits, and module assembly.

encoding, traits, components, archive and savegame mirror the format and hold no game
semantics; geometry, pieces, boxes, html and module turn the game model into a module.
"""
