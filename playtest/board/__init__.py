"""The board component's shared parts, and the dice-and-tiles board of the first game.

`playtest.board.sounds` (synthesised sound cues, imports no Streamlit) and the event
gate and parsing of `playtest.board.component` are shared by every game's board;
`playtest.board.component.render_board` and its front end in real files under `static/`
(`board.js`, the ES module Streamlit loads, `board.html`, `board.css`, and the sound cues
`cues.json`) draw the dice-and-tiles board, whose pure view model is
`playtest.games.<first game>.view`.
"""
