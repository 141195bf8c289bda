"""What every game's board shares.

`playtest.board.sounds` (synthesised sound cues, imports no Streamlit: the shared table
`cues.json` plus each game's own `playtest/games/<game>/sounds.json`) and the event gate,
payload checks, mute event and asset-dir registration of `playtest.board.component`.
Each game's own board component and front end live in its folder, `playtest/games/<game>/`.
"""
