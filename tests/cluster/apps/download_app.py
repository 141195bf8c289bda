"""One download button (a designer's report download, reduced): its file lives in the
memory of the process that drew the page."""

import streamlit as st

st.download_button("Download", data="the plan\n" * 100, file_name="plan.md",
                   mime="text/markdown", key="download")
